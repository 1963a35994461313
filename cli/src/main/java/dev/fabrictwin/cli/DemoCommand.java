package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.MetricsServer;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.evaluation.Scorecard;
import dev.fabrictwin.evaluation.harness.AnalyzerHarness;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabric-twin demo}: everything, embedded — a real KRaft broker in this JVM, the topics, the synthetic
 * cluster publishing at real time, the exactly-once analyzer and its {@code /metrics}; a live console view; at
 * the end (the scenario is over, {@code --duration} elapsed or Ctrl-C) a score of the alerts against the faults
 * the generator injected.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Run the whole product on this machine, with nothing else installed: a real Kafka broker (KRaft, inside this "
            + "JVM), a simulated AI-training cluster publishing telemetry in real time, and the analyzer reading it "
            + "through Kafka Streams.",
        "Prints every alert as it opens and resolves (root causes, and the victims they explain), a status line "
            + "every few seconds, and at the end a score of the alerts against the faults that were injected.",
        "The default scenario: 256 GPUs (64 hosts x 4 NICs) on a spine-leaf fabric, two training jobs, three faults "
            + "in five minutes. Prometheus metrics at http://127.0.0.1:9404/metrics while it runs; other Kafka clients "
            + "(kcat, ...) can read the topics at the broker address printed at start.",
        "Simulated time starts now (unless the scenario sets epoch), so alert times and the sample-to-alert lag "
            + "read as wall-clock times.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin demo                                  # five minutes, Ctrl-C ends it early",
        "  fabric-twin demo --duration 120s                  # stop after two minutes and score what happened",
        "  fabric-twin demo --scenario scenarios/pfc-storm-small.yaml --speed 5",
        "  kcat -b 127.0.0.1:9092 -t fabric.alerts -C -e -X isolation.level=read_committed   # from another terminal",
    })
public final class DemoCommand implements Callable<Integer> {

    /** The built-in scenario (a classpath resource, so the jar runs from anywhere). */
    static final String DEFAULT_SCENARIO = "/dev/fabrictwin/cli/demo.yaml";
    private static final long STATUS_EVERY_MS = 5_000;
    /** After the last sample, how long the analysis gets to close its last ticks and resolve alerts. */
    private static final Duration DRAIN = Duration.ofSeconds(15);
    /** With the generator done, the analysis silent this long means it has caught up. */
    private static final Duration QUIET = Duration.ofSeconds(3);
    /** Kafka's default {@code log.message.timestamp.after.max.ms}: records stamped further ahead are rejected. */
    private static final Duration MAX_AHEAD = Duration.ofMinutes(55);

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "FILE",
        description = "Scenario YAML (docs/contracts.md) instead of the built-in 256-GPU one.")
    private Path scenarioFile;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Stop after this much wall time (e.g. 120s, 10m) instead of at the scenario's end.")
    private Duration duration;

    @Option(names = "--speed", defaultValue = "1", paramLabel = "X",
        description = "Simulated seconds per wall-clock second (default: ${DEFAULT-VALUE}, real time).")
    private double speed;

    @Option(names = "--port", defaultValue = "9092", paramLabel = "PORT",
        description = "Port of the embedded broker on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--metrics-port", defaultValue = "9404", paramLabel = "PORT",
        description = "Port of the Prometheus endpoint on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int metricsPort;

    @Override
    public Integer call() throws Exception {
        if (!(speed > 0) || speed > 1_000) {
            throw new UsageException("--speed must be > 0 and <= 1000, was " + speed);
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new UsageException("--duration must be positive");
        }
        if (port < 0 || port > 65_535 || metricsPort < 0 || metricsPort > 65_535) {
            throw new UsageException("--port and --metrics-port must be 0..65535");
        }
        final Scenario scenario = loadScenario();
        final double aheadMs = scenario.duration().toMillis() * (1 - 1 / speed);
        if (aheadMs >= MAX_AHEAD.toMillis()) {
            throw new UsageException(String.format(Locale.ROOT, "--speed %s would stamp samples up to %.0f min ahead of the "
                + "wall clock; Kafka rejects records more than 1 h in the future: lower --speed or shorten the scenario",
                speed, aheadMs / 60_000));
        }
        final PrintWriter out = spec.commandLine().getOut();
        final DemoConsole console = new DemoConsole(out, scenario.epoch().toEpochMilli());
        final Duration runFor = duration != null ? duration
            : Duration.ofMillis((long) (scenario.duration().toMillis() / speed)).plus(DRAIN);

        final CountDownLatch stop = new CountDownLatch(1);
        final CountDownLatch finished = new CountDownLatch(1);
        final Thread onSignal = new Thread(() -> {
            stop.countDown();
            try {
                finished.await(60, TimeUnit.SECONDS); // let the run close the analyzer and the broker cleanly
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fabric-twin-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            final Run run = new Run(scenario, console, runFor, stop);
            final Scorecard card = run.execute();
            console.summary(card);
            return 0;
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for `finished`
            }
        }
    }

    /**
     * The scenario, with its clock starting now unless it sets {@code epoch}: the alerts' times, Grafana's time
     * axis and the sample-to-alert lag then read as wall-clock times.
     */
    private Scenario loadScenario() throws IOException {
        final ObjectNode tree;
        final Path baseDir;
        if (scenarioFile != null) {
            if (!Files.isRegularFile(scenarioFile)) {
                throw new UsageException("scenario file not found: " + scenarioFile);
            }
            tree = ScenarioParser.tree(scenarioFile);
            baseDir = scenarioFile.toAbsolutePath().getParent();
        } else {
            tree = defaultScenarioTree();
            baseDir = Path.of(".");
        }
        if (!tree.has("epoch")) {
            tree.put("epoch", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        }
        return ScenarioParser.parse(tree, baseDir);
    }

    /** The built-in scenario as written (no epoch: {@link #loadScenario} starts its clock now). */
    static ObjectNode defaultScenarioTree() throws IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream(DEFAULT_SCENARIO)) {
            if (in == null) {
                throw new IllegalStateException("the built-in scenario " + DEFAULT_SCENARIO + " is missing from the jar");
            }
            return ScenarioParser.tree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** One demo run: owns the broker, the analyzer, the generator thread and the console consumer. */
    private final class Run {
        private final Scenario scenario;
        private final DemoConsole console;
        private final Duration runFor;
        private final CountDownLatch stop;
        private final Topics topics = Topics.DEFAULT;
        private final List<Alert> alerts = new ArrayList<>();
        private final Map<String, Alert> open = new LinkedHashMap<>();
        private final Map<String, Double> slowdown = new HashMap<>();
        private long analyzedUpToMs = Long.MIN_VALUE;

        Run(final Scenario scenario, final DemoConsole console, final Duration runFor, final CountDownLatch stop) {
            this.scenario = scenario;
            this.console = console;
            this.runFor = runFor;
            this.stop = stop;
        }

        Scorecard execute() throws Exception {
            final long epoch = scenario.epoch().toEpochMilli();
            final long endOfScenario = epoch + scenario.duration().toMillis();
            final long startNanos = System.nanoTime();
            final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
            final int gpus = cluster.fabric().hosts().stream().mapToInt(h -> cluster.fabric().nicsOf(h).size()).sum();
            console.line(String.format(Locale.ROOT, "demo: scenario %s — %d GPUs on %d hosts (%s), %d job(s), %d fault(s), "
                    + "%d s of simulated time at %sx real time", scenario.name(), gpus, cluster.fabric().hosts().size(),
                cluster.fabric().technology(), scenario.jobs().size(), scenario.faults().size(),
                scenario.duration().toSeconds(), speed == Math.rint(speed) ? Long.toString((long) speed) : Double.toString(speed)));
            try (EmbeddedKafka kafka = EmbeddedKafka.builder().port(port).start()) {
                console.line(String.format(Locale.ROOT, "demo: Kafka (KRaft) ready at %s in %.1f s",
                    kafka.bootstrapServers(), kafka.startTime().toMillis() / 1000.0));
                final Properties client = new Properties();
                client.put("bootstrap.servers", kafka.bootstrapServers());
                TopicSetup.ensure(client, topics);
                final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                final AnalyzerSettings settings = new AnalyzerSettings(topics,
                    AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
                final AtomicReference<Throwable> generatorFailure = new AtomicReference<>();
                final AtomicBoolean stopping = new AtomicBoolean();
                final CountDownLatch generatorDone = new CountDownLatch(1);
                try (MetricsServer metrics = MetricsServer.start(registry, metricsPort);
                     AnalyzerHarness analyzer = AnalyzerHarness.start(client, settings, "fabric-twin-demo", registry, 20)) {
                    console.line(String.format(Locale.ROOT, "demo: analyzer running (exactly-once); metrics at "
                        + "http://127.0.0.1:%d/metrics; topics %s, %s; Ctrl-C to stop", metrics.port(),
                        topics.alerts().name(), topics.jobHealth().name()));
                    final Thread generator = new Thread(() -> {
                        try {
                            KafkaSimulationPublisher.publish(cluster, client, topics, speed, rounds -> { });
                        } catch (CancellationException stopped) {
                            // the run ended before the scenario did
                        } catch (Throwable e) {
                            if (!stopping.get()) { // an interrupt landing inside a Kafka client call, while stopping
                                generatorFailure.set(e);
                            }
                        } finally {
                            generatorDone.countDown();
                        }
                    }, "fabric-twin-demo-generator");
                    generator.setDaemon(true);
                    generator.start();
                    follow(analyzer, registry, generatorDone);
                    stopping.set(true);
                    generator.interrupt();
                    generator.join(TimeUnit.SECONDS.toMillis(30));
                    if (generator.isAlive()) {
                        throw new IllegalStateException("the generator did not stop within 30 s");
                    }
                    if (generatorFailure.get() != null) {
                        throw new IllegalStateException("the generator failed: " + generatorFailure.get().getMessage(),
                            generatorFailure.get());
                    }
                    console.line("demo: stopping (analyzer, metrics, broker) ...");
                }
            }
            final long runEnd = analyzedUpToMs == Long.MIN_VALUE ? epoch : Math.min(analyzedUpToMs, endOfScenario);
            console.line(String.format(Locale.ROOT, "demo: analyzed %.0f s of simulated time in %.0f s", (runEnd - epoch) / 1000.0,
                (System.nanoTime() - startNanos) / 1e9));
            return Scorecard.score(cluster.truth(), alerts,
                scenario.sampleInterval().toMillis(), epoch, runEnd);
        }

        /** Prints alerts and status until the run is over: duration, Ctrl-C, or the scenario analyzed to its end. */
        private void follow(final AnalyzerHarness analyzer, final PrometheusMeterRegistry registry,
                            final CountDownLatch generatorDone)
            throws InterruptedException {
            // counted from the generator's start: the broker's and the analyzer's start-up do not eat the run
            final long deadline = System.nanoTime() + runFor.toNanos();
            long nextStatus = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STATUS_EVERY_MS);
            double lastCount = 0;
            long lastStatusNanos = System.nanoTime();
            long drainUntil = Long.MAX_VALUE;
            long progressAt = System.nanoTime();
            long generatorDoneAt = Long.MAX_VALUE;
            while (stop.getCount() > 0 && System.nanoTime() < deadline && System.nanoTime() < drainUntil) {
                final long before = analyzedUpToMs;
                take(analyzer.poll(Duration.ofMillis(200)));
                if (analyzedUpToMs != before) {
                    progressAt = System.nanoTime();
                }
                if (generatorDone.getCount() == 0) {
                    generatorDoneAt = Math.min(generatorDoneAt, System.nanoTime());
                    // the last ticks close only as far as later samples reach: once the analysis has stopped
                    // advancing for a few seconds, everything that will be analyzed has been
                    drainUntil = Math.min(Math.max(progressAt, generatorDoneAt) + QUIET.toNanos(),
                        generatorDoneAt + DRAIN.toNanos());
                }
                if (System.nanoTime() >= nextStatus) {
                    final Counter processed = registry.find("fabric.samples.processed").counter();
                    final double count = processed == null ? 0 : processed.count();
                    final double seconds = (System.nanoTime() - lastStatusNanos) / 1e9;
                    final long roots = open.values().stream().filter(Alert::rootCause).count();
                    console.status(analyzedUpToMs == Long.MIN_VALUE ? 0 : (analyzedUpToMs - scenario.epoch().toEpochMilli()) / 1000.0,
                        (count - lastCount) / seconds, (int) roots, open.size() - (int) roots, slowdown,
                        AnalyzerMetrics.unmatchedNames(registry));
                    lastCount = count;
                    lastStatusNanos = System.nanoTime();
                    nextStatus = lastStatusNanos + TimeUnit.MILLISECONDS.toNanos(STATUS_EVERY_MS);
                }
            }
        }

        private void take(final AnalyzerHarness.Output out) {
            for (final Alert a : out.alerts()) {
                alerts.add(a);
                if (a.state() == Alert.State.RESOLVED) {
                    open.remove(a.id());
                } else {
                    open.put(a.id(), a);
                }
                console.alert(a);
            }
            for (final JobHealth health : out.jobHealth()) {
                analyzedUpToMs = Math.max(analyzedUpToMs, health.ts());
                slowdown.put(health.job(), health.slowdown()); // NaN: unknown, and the status line says so
            }
        }
    }
}
