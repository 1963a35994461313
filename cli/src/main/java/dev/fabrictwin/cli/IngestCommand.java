package dev.fabrictwin.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;

import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.StreamSinks;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.ethtool.EthtoolStatsAdapter;
import dev.fabrictwin.ingest.format.prometheus.PrometheusTextAdapter;
import dev.fabrictwin.ingest.format.sysfs.SysfsInfinibandAdapter;
import dev.fabrictwin.ingest.format.sysfs.SysfsTreeReader;
import dev.fabrictwin.ingest.kafka.KafkaIngestSink;
import dev.fabrictwin.ingest.scrape.ScrapeTarget;
import dev.fabrictwin.ingest.scrape.ScrapeTargets;
import dev.fabrictwin.ingest.scrape.Scraper;
import dev.fabrictwin.ingest.stream.IngestTopicApp;
import dev.fabrictwin.ingest.stream.IngestTopicRun;
import dev.fabrictwin.ingest.stream.IngestTopicSettings;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabric-twin ingest}: counters from a file or stdin, from collectors' Kafka topic, scraped from
 * Prometheus exporters, or read from a live {@code /sys/class/infiniband} tree, to Kafka or canonical JSON lines. Exit 1 when nothing was ingested.
 */
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
        "",
        "Input: --file (a file or stdin), --sysfs DIR (a live /sys/class/infiniband tree), --from-topic (what "
            + "gnmic's or Telegraf's Kafka output writes; a Kafka Streams app, exactly once, runs until stopped or "
            + "--stop-when-idle) or --scrape (Prometheus exporters every --interval; runs until stopped or --scrapes "
            + "rounds). --scrape maps node_exporter (node_network_*, node_ethtool_*, node_infiniband_*), "
            + "infiniband_exporter and SONiC's sonic-exporter (sonic_interface_*: bytes, packets, discards, speed, "
            + "oper status); ingest --format sonic reads SONiC's COUNTERS_DB itself. --sysfs reads a live "
            + "/sys/class/infiniband tree in place every --interval "
            + "(InfiniBand/RoCE counters/, hw_counters/, state, rate of each <hca>/ports/<n>, mapped as --format sysfs; "
            + "device: --device, else this machine's hostname); a file that cannot be read (permission, or gone with "
            + "its port) is counted and warned about, the rest of the round goes on. --format rdma reads the RDMA "
            + "hardware counters of 'rdma statistic show -j' (iproute2), named as --sysfs names them (np_cnp_sent -> "
            + "cnp_sent, port <hca>/<n>; --device required).",
        "",
        "Exit status: 0 when at least one sample was ingested; 1 when nothing was (no input, or every record "
            + "rejected: the summary says which); 2 for bad usage. Stopped by a signal (Ctrl-C), the summary "
            + "still prints and the status is the signal's (130).",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin ingest --format canonical --file out/pfc/samples.jsonl --bootstrap 127.0.0.1:9092",
        "  ethtool -S eth0 | fabric-twin ingest --format ethtool --device host-3 --port eth0 --file - --output -",
        "  # gnmic 'outputs: {k: {type: kafka, topic: gnmic, format: event}}' -> telemetry.samples",
        "  fabric-twin ingest --from-topic gnmic --format gnmic --bootstrap 127.0.0.1:9092",
        "  # Telegraf '[[outputs.kafka]] topic = \"telegraf\" data_format = \"json\"'",
        "  fabric-twin ingest --from-topic telegraf --format telegraf-json --bootstrap 127.0.0.1:9092 --stop-when-idle 30s",
        "  # node_exporter / infiniband_exporter listed in targets.yaml, every second",
        "  fabric-twin ingest --scrape targets.yaml --interval 1s --bootstrap 127.0.0.1:9092",
        "  fabric-twin ingest --scrape targets.yaml --scrapes 1 --output -",
        "  # RoCE/InfiniBand counters of this host's HCAs, every second",
        "  fabric-twin ingest --sysfs /sys/class/infiniband --interval 1s --bootstrap 127.0.0.1:9092",
        "  fabric-twin ingest --sysfs /sys/class/infiniband --device gpu01 --scrapes 1 --output -",
        "  rdma statistic show -j | fabric-twin ingest --format rdma --device gpu01 --file - --output -",
    })
final class IngestCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT",
        description = "Input format: canonical, gnmic, gnmi-protojson, prometheus, ethtool, sysfs, rdma, sonic, perfquery, "
            + "influx, telegraf-json. Required with --file and --from-topic; --scrape reads prometheus, --sysfs sysfs.")
    private String format;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    static final class Source {
        @Option(names = "--file", paramLabel = "FILE|-", description = "Input file, or - for stdin.")
        String file;

        @Option(names = "--from-topic", paramLabel = "TOPIC",
            description = "Read collectors' messages from this Kafka topic (one message = one unit of --format), "
                + "exactly once, to telemetry.samples. Needs --bootstrap.")
        String topic;

        @Option(names = "--scrape", paramLabel = "TARGETS.yaml",
            description = "Scrape the Prometheus exporters listed in this file ('targets:' of URLs or {url, device}; "
                + "device defaults to the URL's host).")
        Path targets;

        @Option(names = "--sysfs", paramLabel = "DIR",
            description = "Read this /sys/class/infiniband directory in place every --interval (runs until stopped or "
                + "--scrapes rounds): each <hca>/ports/<n>'s counters/, hw_counters/, state and rate.")
        Path sysfs;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    static final class Target {
        @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Produce to this Kafka.")
        String bootstrap;

        @Option(names = "--output", paramLabel = "-", description = "Write canonical JSON lines to stdout instead ('-').")
        String output;
    }

    @Option(names = "--device", paramLabel = "NAME",
        description = "Device name for formats that carry none (with --sysfs: default this machine's hostname).")
    private String device;

    @Option(names = "--port", paramLabel = "NAME",
        description = "Port of an ethtool -S dump, which prints no interface name (else nic0; a '# ethtool -S eth1' "
            + "line before a dump names its port, so one input can hold several NICs).")
    private String port;

    @Option(names = "--rejected", paramLabel = "FILE",
        description = "With --output: where rejected input goes (default: FILE.rejected, or ingest.rejected for stdin "
            + "and --scrape).")
    private Path rejectedFile;

    @Option(names = "--config", paramLabel = "FILE", description = "Kafka client properties (with --bootstrap).")
    private Path config;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "", description = "Topic name prefix.")
    private String topicPrefix;

    @Option(names = "--application-id", paramLabel = "ID",
        description = "With --from-topic: the Kafka Streams application id (consumer group; a restart with the same id "
            + "resumes exactly where it stopped). Default: fabric-twin-ingest-TOPIC.")
    private String applicationId;

    @Option(names = "--stop-when-idle", paramLabel = "TIME", converter = DurationConverter.class,
        description = "With --from-topic: stop once no message has arrived for this long (default: run until stopped).")
    private Duration stopWhenIdle;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10s",
        description = "With --scrape and --sysfs: time between rounds (default: ${DEFAULT-VALUE}).")
    private Duration interval;

    @Option(names = "--scrapes", paramLabel = "N", defaultValue = "0",
        description = "With --scrape and --sysfs: stop after N rounds (default: run until stopped).")
    private long scrapes;

    @Option(names = "--timeout", paramLabel = "TIME", converter = DurationConverter.class,
        description = "With --scrape: per-request timeout (default: the interval, at most 10s).")
    private Duration timeout;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final IngestStats stats = new IngestStats();
        final String extra;
        if (source.file != null) {
            ingestFile(stats);
            extra = "";
        } else if (source.topic != null) {
            ingestTopic(stats);
            extra = "";
        } else if (source.sysfs != null) {
            extra = "; " + sysfs(stats);
        } else {
            extra = "; " + scrape(stats);
        }
        return finish(stats, extra);
    }

    /** The one-line summary; exit 1 when not one sample came out, so scripts notice a run that ingested nothing. */
    private int finish(final IngestStats stats, final String extra) {
        final boolean nothing = stats.samples() == 0;
        stats.warnings().forEach(w -> spec.commandLine().getErr().println("ingest: warning: " + w));
        spec.commandLine().getErr().println("ingest: " + (nothing ? "nothing ingested: " : "") + stats.summary() + extra);
        spec.commandLine().getErr().flush();
        return nothing ? FabricTwin.EXIT_FAILURE : FabricTwin.EXIT_OK;
    }

    private FormatAdapter requiredFormat() {
        if (format == null) {
            throw new UsageException("--format is required with --file and --from-topic");
        }
        final FormatAdapter adapter = Formats.adapter(format);
        if (port != null && !adapter.format().equals(EthtoolStatsAdapter.FORMAT)) {
            throw new UsageException("--port names the port of ethtool -S dumps, which print none; --format " + format
                + " names its ports itself");
        }
        return adapter;
    }

    private ParseContext context() {
        final ParseContext ctx = ParseContext.defaults(Clock.systemUTC()).withPort(port);
        return device == null ? ctx : ctx.withDevice(device);
    }

    private KafkaOptions kafka() {
        final KafkaOptions kafka = new KafkaOptions();
        kafka.bootstrap = target.bootstrap;
        kafka.config = config;
        kafka.topicPrefix = topicPrefix;
        return kafka;
    }

    private void ingestFile(final IngestStats stats) throws IOException {
        final String file = source.file;
        final FormatAdapter adapter = requiredFormat();
        if (!file.equals("-") && !Files.isRegularFile(Path.of(file))) {
            throw new UsageException("input file not found: " + file);
        }
        checkOutput();
        final String name = file.equals("-") ? "stdin" : file;
        try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
            toSink(stats, name, file.equals("-") ? "ingest.rejected" : file + ".rejected", sink -> adapter.parse(in, context(), sink));
        }
    }

    private void checkOutput() {
        if (target.output != null && !target.output.equals("-")) {
            throw new UsageException("--output takes '-' (stdout); to write a file, redirect stdout");
        }
    }

    @FunctionalInterface
    private interface Ingest {
        void into(IngestSink sink) throws IOException, InterruptedException;
    }

    /** Runs {@code ingest} into stdout (--output -) or a Kafka producer (--bootstrap). */
    private void toSink(final IngestStats stats, final String name, final String defaultRejected, final Ingest ingest)
        throws IOException {
        try {
            if (target.output != null) {
                final Path rejected = rejectedFile != null ? rejectedFile : Path.of(defaultRejected);
                try (OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
                     OutputStream rej = new LazyFileOutputStream(rejected)) {
                    ingest.into(new StreamSinks(out, rej, name, stats));
                }
            } else {
                final KafkaOptions kafka = kafka();
                try (KafkaIngestSink sink = KafkaIngestSink.open(kafka.clientConfig(), kafka.topics(), name, stats)) {
                    ingest.into(sink);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopped by a signal: what was read is flushed above, the summary follows
        }
    }

    private void ingestTopic(final IngestStats stats) throws InterruptedException {
        requiredFormat();
        if (target.bootstrap == null) {
            throw new UsageException("--from-topic writes to Kafka: give --bootstrap HOST:PORT (not --output)");
        }
        final KafkaOptions kafka = kafka();
        final Properties client = kafka.clientConfig();
        final String appId = applicationId != null ? applicationId : IngestTopicSettings.defaultApplicationId(source.topic);
        final IngestTopicSettings settings = new IngestTopicSettings(source.topic, format, kafka.topics(), appId, context());
        StateDirCheck.require(IngestTopicApp.streamsConfig(client, settings));
        final StopSignal stop = StopSignal.install();
        try {
            final Optional<String> failed = IngestTopicRun.run(client, settings, stats, stopWhenIdle, stop,
                spec.commandLine().getErr());
            if (failed.isPresent()) {
                throw new CommandFailure(failed.get() + " after " + stats.summary(), null);
            }
        } finally {
            stop.done();
        }
    }

    private String sysfs(final IngestStats stats) throws IOException {
        if (format != null && !format.equals(SysfsInfinibandAdapter.FORMAT)) {
            throw new UsageException("--sysfs reads /sys/class/infiniband (format sysfs); drop --format " + format);
        }
        if (port != null) {
            throw new UsageException("--port names the port of ethtool -S dumps; --sysfs names its ports <hca>/<n>");
        }
        positiveInterval();
        checkOutput();
        SysfsTreeReader.problem(source.sysfs).ifPresent(problem -> {
            throw new UsageException(problem);
        });
        final String host = device != null ? device : hostname();
        final SysfsTreeReader reader = new SysfsTreeReader(source.sysfs, context().withDevice(host), Clock.systemUTC());
        final StopSignal stop = StopSignal.install();
        try {
            toSink(stats, "sysfs", "ingest.rejected", sink -> reader.run(sink, interval, scrapes));
        } finally {
            stop.done();
        }
        return reader.summary();
    }

    /** This machine's name as the kernel has it ({@code uname -n}), without asking DNS. */
    private static String hostname() {
        try {
            final Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                final String name = Files.readString(kernel).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            }
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            throw new UsageException("cannot tell this machine's hostname (" + e.getMessage() + "): give --device");
        }
    }

    private void positiveInterval() {
        if (interval.isZero() || interval.isNegative()) {
            throw new UsageException("--interval must be positive, was " + interval);
        }
    }

    private String scrape(final IngestStats stats) throws IOException {
        if (format != null && !format.equals(PrometheusTextAdapter.FORMAT)) {
            throw new UsageException("--scrape reads Prometheus text exposition; drop --format " + format);
        }
        if (port != null) {
            throw new UsageException("--port names the port of ethtool -S dumps; --scrape reads exporters, whose series name their ports");
        }
        if (!Files.isRegularFile(source.targets)) {
            throw new UsageException("targets file not found: " + source.targets);
        }
        positiveInterval();
        checkOutput();
        final List<ScrapeTarget> targets = ScrapeTargets.parse(Files.readString(source.targets));
        final Duration perRequest = timeout != null ? timeout : interval.compareTo(Duration.ofSeconds(10)) < 0 ? interval
            : Duration.ofSeconds(10);
        final Scraper scraper = new Scraper(targets, perRequest, context(), Clock.systemUTC(), line -> {
            spec.commandLine().getErr().println("ingest: " + line);
            spec.commandLine().getErr().flush();
        });
        final StopSignal stop = StopSignal.install();
        try {
            toSink(stats, "scrape", "ingest.rejected", sink -> scraper.run(sink, interval, scrapes));
        } finally {
            stop.done();
        }
        return scraper.summary();
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
