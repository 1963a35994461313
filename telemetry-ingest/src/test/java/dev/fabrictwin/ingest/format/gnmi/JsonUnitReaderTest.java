package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Units, lines and limits are the same however the input arrives: in one read, or a byte a read. */
class JsonUnitReaderTest {

    private static final String INPUT = "{\"a\":\"}\\\"{\",\n\"b\":[1,{\"c\":2}]}\n junk\n{\"d\":\n1}"
        + "[{\"e\":1},2,{\"f\":\n\n3}]\n{\"g\":{\"h\":1}";

    @Test
    void shouldSplitTheSameWayWhateverTheReadSize() throws IOException {
        final List<String> whole = units(new ByteArrayInputStream(bytes(INPUT)), 1 << 20);
        assertThat(whole).containsExactly(
            "OBJECT line 1 false {\"a\":\"}\\\"{\",\n\"b\":[1,{\"c\":2}]}",
            "GARBAGE line 3 false junk\n",
            "OBJECT line 4 false {\"d\":\n1}",
            "OBJECT line 5 false {\"e\":1}",
            "GARBAGE line 5 false 2",
            "OBJECT line 5 false {\"f\":\n\n3}",
            "UNTERMINATED line 8 false {\"g\":{\"h\":1}");
        assertThat(units(oneByteAtATime(bytes(INPUT)), 1 << 20)).isEqualTo(whole);
    }

    @Test
    void shouldKeepTheFirstBytesOfAnOversizedObjectAndReadOnAfterIt() throws IOException {
        final String input = "{\"a\":\"0123456789\"}\n{\"b\":1}";
        final List<String> expected = List.of("OBJECT line 1 true {\"a\":\"0123", "OBJECT line 2 false {\"b\":1}");
        assertThat(units(new ByteArrayInputStream(bytes(input)), 10)).isEqualTo(expected);
        assertThat(units(oneByteAtATime(bytes(input)), 10)).isEqualTo(expected);
    }

    private static List<String> units(final InputStream in, final int limit) throws IOException {
        final JsonUnitReader reader = new JsonUnitReader(in, limit);
        final List<String> out = new ArrayList<>();
        JsonUnitReader.Unit u;
        while ((u = reader.next()) != null) {
            out.add(u.kind() + " line " + u.line() + " " + u.oversized() + " " + new String(u.bytes(), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] bytes(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static InputStream oneByteAtATime(final byte[] data) {
        return new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(final byte[] b, final int off, final int len) {
                return super.read(b, off, Math.min(1, len));
            }

            @Override
            public synchronized int available() {
                return 0;
            }
        };
    }
}
