package dev.fabrictwin.ingest.format.influx;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.FormatAdapter;

/**
 * The adapter contract for {@code telegraf-json} (its format tests are in {@link TelegrafJsonAdapterTest}): the
 * hand-written net metric is the clean fixture; the README's docker examples, which name no port and so are
 * partly rejected, seed the fuzzing too.
 */
class TelegrafJsonContractTest extends AdapterContract {

    @Override
    protected FormatAdapter adapter() {
        return new TelegrafJsonAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        try {
            return List.of(Path.of(TelegrafJsonContractTest.class.getResource("/handmade/telegraf-json/net-eth0.json").toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected List<Path> fuzzSeeds() {
        return List.of(fixtures().get(0), refdata("telegraf-readme-examples/serializers_json.README.L41-53.json"),
            refdata("telegraf-readme-examples/serializers_json.README.L61-90.json"));
    }
}
