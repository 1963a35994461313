package dev.fabrictwin.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.StreamSinks;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.kafka.KafkaIngestSink;
import dev.fabrictwin.kafka.common.ProducerSettings;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin ingest}: a counter format from a file or stdin to Kafka or canonical JSON lines. */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Read counters in one of the supported formats and turn them into canonical samples, produced to "
            + "telemetry.samples (key = device) or written as JSON lines. Bad input is never dropped: each "
            + "rejected unit goes to telemetry.deadletter with headers error/source/offset (or, with --output, "
            + "to the --rejected file), is counted by reason, and ingest goes on. Ends with a one-line summary "
            + "on stderr.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin ingest --format canonical --file out/pfc/samples.jsonl --bootstrap 127.0.0.1:9092",
        "  ethtool -S eth0 | fabric-twin ingest --format ethtool --device host-3 --file - --output -",
    })
final class IngestCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
        description = "Input format: canonical, gnmic, gnmi-protojson, prometheus, ethtool, sysfs, sonic, perfquery, influx.")
    private String format;

    @Option(names = "--file", required = true, paramLabel = "FILE|-", description = "Input file, or - for stdin.")
    private String file;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    static final class Target {
        @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Produce to this Kafka.")
        String bootstrap;

        @Option(names = "--output", paramLabel = "-", description = "Write canonical JSON lines to stdout instead ('-').")
        String output;
    }

    @Option(names = "--device", paramLabel = "NAME", description = "Device name for formats that carry none.")
    private String device;

    @Option(names = "--rejected", paramLabel = "FILE",
        description = "With --output: where rejected input goes (default: FILE.rejected, or ingest.rejected for stdin).")
    private Path rejectedFile;

    @Option(names = "--config", paramLabel = "FILE", description = "Kafka client properties (with --bootstrap).")
    private Path config;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "", description = "Topic name prefix.")
    private String topicPrefix;

    @Override
    public Integer call() throws IOException {
        final FormatAdapter adapter = Formats.adapter(format);
        if (!file.equals("-") && !Files.isRegularFile(Path.of(file))) {
            throw new UsageException("input file not found: " + file);
        }
        if (target.output != null && !target.output.equals("-")) {
            throw new UsageException("--output takes '-' (stdout); to write a file, redirect stdout");
        }
        ParseContext ctx = ParseContext.defaults(Clock.systemUTC());
        if (device != null) {
            ctx = ctx.withDevice(device);
        }
        final IngestStats stats = new IngestStats();
        final String source = file.equals("-") ? "stdin" : file;
        try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
            if (target.output != null) {
                final Path rejected = rejectedFile != null ? rejectedFile
                    : Path.of(file.equals("-") ? "ingest.rejected" : file + ".rejected");
                try (OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
                     OutputStream rej = new LazyFileOutputStream(rejected)) {
                    adapter.parse(in, ctx, new StreamSinks(out, rej, source, stats));
                }
            } else {
                final KafkaOptions kafka = new KafkaOptions();
                kafka.bootstrap = target.bootstrap;
                kafka.config = config;
                kafka.topicPrefix = topicPrefix;
                TopicSetup.ensure(kafka.clientConfig(), kafka.topics());
                try (Producer<String, byte[]> producer = new KafkaProducer<>(ProducerSettings.telemetry(kafka.clientConfig()))) {
                    final KafkaIngestSink sink = new KafkaIngestSink(producer, kafka.topics(), source, stats);
                    adapter.parse(in, ctx, sink);
                    producer.flush();
                    sink.checkErrors();
                }
            }
        }
        spec.commandLine().getErr().println("ingest: " + stats.summary());
        spec.commandLine().getErr().flush();
        return FabricTwin.EXIT_OK;
    }

    /** Creates the rejected file only if something is rejected, so clean runs leave no empty files behind. */
    private static final class LazyFileOutputStream extends OutputStream {
        private final Path path;
        private OutputStream out;

        LazyFileOutputStream(final Path path) {
            this.path = path;
        }

        @Override
        public void write(final int b) throws IOException {
            open().write(b);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException {
            open().write(b, off, len);
        }

        private OutputStream open() throws IOException {
            if (out == null) {
                out = new BufferedOutputStream(Files.newOutputStream(path));
            }
            return out;
        }

        @Override
        public void close() throws IOException {
            if (out != null) {
                out.close();
            }
        }
    }
}
