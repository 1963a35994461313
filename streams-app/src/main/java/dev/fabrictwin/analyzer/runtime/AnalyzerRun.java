package dev.fabrictwin.analyzer.runtime;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.MetricsServer;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.TopicSetup;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * One run of the analyzer against a broker, as {@code fabric-twin analyze} runs it: the topics made and checked, the
 * Prometheus endpoint, {@link AnalyzerApp}, a watch on its input topics, and a loop that prints state changes and status
 * lines until a signal, the deadline or a failure ends it. Every line goes to the given writer.
 */
public final class AnalyzerRun {

    /** How a run ended. */
    public enum Result {
        /** Stopped by a signal or after its duration. */
        STOPPED,
        /** Kafka Streams stopped on an error or an input topic is gone: a supervisor should start it again. */
        FAILED
    }

    /** The port of the Prometheus endpoint unless told otherwise. */
    public static final int DEFAULT_METRICS_PORT = 9404;

    /** How often the state is checked: a change is printed, ERROR ends the run. */
    private static final long WATCH_MS = 500;
    /** How often the input topics are looked for (a broker that lost them is noticed within two looks). */
    private static final long TOPIC_CHECK_MS = 5_000;

    private final Properties client;
    private final AnalyzerSettings settings;
    private final Properties streams;
    private final String applicationId;
    private final String metricsHost;
    private final int metricsPort;
    private final SeriesLimits limits;
    private final Duration statusEvery;
    private final Duration duration;
    private final PrintWriter out;

    private AnalyzerRun(final Builder b) {
        this.client = b.client;
        this.settings = b.settings;
        this.applicationId = b.applicationId;
        this.metricsHost = b.metricsHost;
        this.metricsPort = b.metricsPort;
        this.limits = b.limits;
        this.statusEvery = b.statusEvery;
        this.duration = b.duration;
        this.out = b.out;
        streams = new Properties();
        streams.put(StreamsConfig.APPLICATION_ID_CONFIG, b.applicationId);
        streams.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, b.standbyReplicas);
        if (b.stateDir != null) {
            streams.put(StreamsConfig.STATE_DIR_CONFIG, b.stateDir.toString());
        }
        if (b.instanceName != null) {
            streams.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, b.instanceName);
        }
        streams.putAll(b.client);
    }

    /** A run reading and writing {@code settings}' topics with the Kafka client properties {@code client}. */
    public static Builder builder(final Properties client, final AnalyzerSettings settings) {
        return new Builder(client, settings);
    }

    /** The Kafka Streams configuration the run starts with (a copy): the client's properties win over the options. */
    public Properties streamsConfig() {
        final Properties copy = new Properties();
        copy.putAll(streams);
        return copy;
    }

    /** Runs until a signal, the duration or a failure; the failure is said in one line before {@link Result#FAILED}. */
    public Result run() throws IOException, InterruptedException {
        // a restart's longest steps, side by side: its previous run's transactions end while the topics are checked
        final CompletableFuture<Void> previousEnded = AnalyzerApp.endPreviousTransactions(streams, settings);
        final List<String> inputTopics = List.of(settings.topics().samples().name(), settings.topics().topology().name(),
            settings.topics().jobs().name());
        TopicSetup.ensureWithAccess(client, settings.topics(), inputTopics, List.of(settings.topics().alerts().name(),
            settings.topics().jobHealth().name(), settings.topics().deadLetter().name()));
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        final CountDownLatch stopped = new CountDownLatch(1);
        try (MetricsServer metrics = MetricsServer.start(registry, metricsHost, metricsPort);
             AnalyzerApp app = AnalyzerApp.start(streams, settings, registry, limits, previousEnded);
             InputTopicWatch inputs = new InputTopicWatch(streams, inputTopics)) {
            final Thread onSignal = new Thread(() -> {
                app.close();
                stopped.countDown();
            }, "fabric-twin-analyze-shutdown");
            Runtime.getRuntime().addShutdownHook(onSignal);
            out.printf(Locale.ROOT, "analyze: %s at %s, metrics at http://%s:%d/metrics%s%n", applicationId,
                client.get("bootstrap.servers"), metricsHost, metrics.port(),
                duration == null ? "; Ctrl-C to stop" : "; stopping after " + duration.toSeconds() + " s");
            out.flush();
            final long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
            final long started = System.nanoTime();
            long nextStatus = next(started);
            long nextTopicCheck = started + TimeUnit.MILLISECONDS.toNanos(TOPIC_CHECK_MS);
            double lastCount = 0;
            KafkaStreams.State lastState = null;
            while (!stopped.await(WATCH_MS, TimeUnit.MILLISECONDS)) {
                final KafkaStreams.State state = app.state();
                if (state != lastState) {
                    out.printf(Locale.ROOT, "analyze: %s%s after %.1f s%n", state,
                        state == KafkaStreams.State.RUNNING ? " (processing)" : "", (System.nanoTime() - started) / 1e9);
                    lastState = state;
                }
                final boolean stoppedItself = state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING;
                if (stoppedItself || System.nanoTime() >= nextTopicCheck) {
                    // Kafka Streams stops by itself on topics gone missing too: then one answer is enough
                    final Optional<String> gone = stoppedItself ? inputs.checkOnce() : inputs.check();
                    if (gone.isPresent()) {
                        Runtime.getRuntime().removeShutdownHook(onSignal);
                        out.println("analyze: " + gone.get() + ": exiting 1; started again, analyze creates the topics "
                            + "and begins afresh");
                        out.flush();
                        return Result.FAILED;
                    }
                    nextTopicCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TOPIC_CHECK_MS);
                }
                if (stoppedItself) {
                    Runtime.getRuntime().removeShutdownHook(onSignal);
                    out.println("analyze: Kafka Streams stopped (" + state + app.failure().map(f -> ": " + f)
                        .orElse("; the log says why") + "): exiting 1 so a supervisor restarts it");
                    out.flush();
                    return Result.FAILED;
                }
                if (System.nanoTime() >= deadline) {
                    Runtime.getRuntime().removeShutdownHook(onSignal);
                    break;
                }
                if (System.nanoTime() >= nextStatus) {
                    final double count = registry.find("fabric.samples.processed").counter() == null ? 0
                        : registry.find("fabric.samples.processed").counter().count();
                    out.printf(Locale.ROOT, "analyze: %s  %,.0f samples analyzed (%,.0f/s)%s%n", state, count,
                        (count - lastCount) / (statusEvery.toMillis() / 1000.0),
                        AnalyzerMetrics.unmatchedSummary(AnalyzerMetrics.unmatchedNames(registry)));
                    lastCount = count;
                    nextStatus = next(System.nanoTime());
                }
                out.flush();
            }
        }
        out.println("analyze: stopped");
        out.flush();
        return Result.STOPPED;
    }

    /** When the next status line is due after {@code nowNanos} (never with a zero status interval). */
    private long next(final long nowNanos) {
        return statusEvery.isZero() ? Long.MAX_VALUE : nowNanos + statusEvery.toNanos();
    }

    /** The options of a run; each has the default {@code fabric-twin analyze} gives it. */
    public static final class Builder {

        private final Properties client;
        private final AnalyzerSettings settings;
        private String applicationId = AnalyzerApp.DEFAULT_APPLICATION_ID;
        private int standbyReplicas;
        private String instanceName;
        private Path stateDir;
        private String metricsHost = MetricsServer.DEFAULT_HOST;
        private int metricsPort = DEFAULT_METRICS_PORT;
        private SeriesLimits limits = SeriesLimits.defaults();
        private Duration statusEvery = Duration.ofSeconds(10);
        private Duration duration;
        private PrintWriter out = new PrintWriter(System.err, true);

        private Builder(final Properties client, final AnalyzerSettings settings) {
            this.client = client;
            this.settings = settings;
        }

        /** The Kafka Streams application id: instances with the same one share the work. */
        public Builder applicationId(final String id) {
            this.applicationId = id;
            return this;
        }

        /** Warm standby copies of each task's state on other instances. */
        public Builder standbyReplicas(final int n) {
            this.standbyReplicas = n;
            return this;
        }

        /** A name kept across restarts (static group membership), or null for none. */
        public Builder instanceName(final String name) {
            this.instanceName = name;
            return this;
        }

        /** Where Kafka Streams keeps local state, or null for its default. */
        public Builder stateDir(final Path dir) {
            this.stateDir = dir;
            return this;
        }

        /** Address and port of the Prometheus endpoint; port 0 picks a free one. */
        public Builder metrics(final String host, final int port) {
            this.metricsHost = host;
            this.metricsPort = port;
            return this;
        }

        /** How many devices and ports get series of their own. */
        public Builder seriesLimits(final SeriesLimits seriesLimits) {
            this.limits = seriesLimits;
            return this;
        }

        /** A status line this often; zero for none. */
        public Builder statusEvery(final Duration every) {
            this.statusEvery = every;
            return this;
        }

        /** Stop after this long, or null to run until a signal. */
        public Builder duration(final Duration runFor) {
            this.duration = runFor;
            return this;
        }

        /** Where the run's lines go. */
        public Builder output(final PrintWriter writer) {
            this.out = writer;
            return this;
        }

        public AnalyzerRun build() {
            return new AnalyzerRun(this);
        }
    }
}
