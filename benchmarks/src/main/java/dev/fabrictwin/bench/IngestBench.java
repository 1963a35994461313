package dev.fabrictwin.bench;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.kafka.KafkaIngestSink;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code bench ingest}: parse+normalize throughput per format on one thread, and ingest-to-Kafka throughput
 * against Kafka's own {@code ProducerPerformance} on the same embedded broker in the same run (alternating,
 * best of two each, because run-to-run noise on a 2-core box is ±40 %).
 */
public final class IngestBench {

    private static final int SAMPLES = 300_000;
    private static final Pattern TOOL_RESULT = Pattern.compile("(\\d+) records sent, ([0-9.]+) records/sec");

    private IngestBench() {
    }

    /** Inputs for the parse benchmarks: format name → input bytes; filled by callers for adapters that exist. */
    public static Map<String, Double> run(final Consumer<String> progress) {
        final Map<String, Double> out = new LinkedHashMap<>();
        final byte[] canonical = canonicalInput(SAMPLES);
        progress.accept(String.format(Locale.ROOT, "canonical input: %d samples, %.1f MB",
            SAMPLES, canonical.length / 1e6));
        out.put("parseCanonicalPerSec", parsePerSec("canonical", canonical, SAMPLES));
        for (final var extra : FormatInputs.all().entrySet()) {
            out.put(extra.getKey(), parsePerSec(extra.getValue().format(), extra.getValue().bytes(), extra.getValue().samples()));
        }
        progress.accept("starting an embedded broker for the produce comparison ...");
        final Path payloads;
        try {
            // The tool sends the same sample lines we do, so both compress alike (lz4) and sizes match.
            payloads = Files.createTempFile("fabric-twin-bench-", ".jsonl");
            Files.write(payloads, canonical);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            double tool = 0;
            double ours = 0;
            for (int round = 0; round < 2; round++) {
                final String toolTopic = "bench-tool-" + round;
                final String ourPrefix = "bench-ours-" + round + ".";
                kafka.createTopic(toolTopic, 6);
                final double t = toolRecordsPerSec(kafka.bootstrapServers(), toolTopic, SAMPLES, payloads);
                progress.accept(String.format(Locale.ROOT, "  round %d: Kafka ProducerPerformance %.0f records/s", round + 1, t));
                final double o = ourRecordsPerSec(kafka.bootstrapServers(), new Topics(ourPrefix), canonical);
                progress.accept(String.format(Locale.ROOT, "  round %d: fabric-twin ingest (parse + produce) %.0f samples/s", round + 1, o));
                tool = Math.max(tool, t);
                ours = Math.max(ours, o);
            }
            out.put("produceSamplesPerSec", ours);
            out.put("kafkaToolRecordsPerSec", tool);
            out.put("produceRatioVsKafkaTool", ours / tool);
        } finally {
            payloads.toFile().delete();
        }
        return out;
    }

    /** Canonical JSON lines from the healthy scenario's synthetic cluster, repeated to {@code n} samples. */
    static byte[] canonicalInput(final int n) {
        final Scenario s = ScenarioParser.parse(ScenarioParser.tree("""
            name: bench
            duration: 120s
            fabric: {kind: spine-leaf, spines: 4, leaves: 8, hostsPerLeaf: 4, nicsPerHost: 1}
            jobs:
              - {id: a, hosts: 32, pattern: ring-allreduce, bytesPerIteration: 8GB, iterationPeriod: 2s, commFraction: 0.35}
            """), Path.of("."));
        final List<byte[]> lines = new ArrayList<>();
        new SyntheticCluster(s, TelemetryProfile.defaults()).run(sample -> lines.add(SampleJson.writeBytes(sample)), d -> { });
        final ByteArrayOutputStream out = new ByteArrayOutputStream(n * 520);
        for (int i = 0; i < n; i++) {
            out.writeBytes(lines.get(i % lines.size()));
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** Samples/s through one adapter on this thread: best of 3 after a warm-up pass. */
    static double parsePerSec(final String format, final byte[] input, final long expectedSamples) {
        final FormatAdapter adapter = Formats.adapter(format);
        final ParseContext ctx = ParseContext.defaults(Clock.systemUTC()).withDevice("bench").withoutTimeWindow();
        double best = 0;
        for (int i = 0; i < 4; i++) {
            final CountingSink sink = new CountingSink();
            final long t0 = System.nanoTime();
            try {
                adapter.parse(new ByteArrayInputStream(input), ctx, sink);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            final double perSec = sink.samples / ((System.nanoTime() - t0) / 1e9);
            if (sink.samples != expectedSamples || sink.rejected > 0) {
                throw new IllegalStateException(format + " bench input gave " + sink.samples + " samples and "
                    + sink.rejected + " rejections, expected " + expectedSamples);
            }
            if (i > 0) {
                best = Math.max(best, perSec);
            }
        }
        return best;
    }

    private static double ourRecordsPerSec(final String bootstrap, final Topics topics, final byte[] input) {
        final Properties client = new Properties();
        client.put("bootstrap.servers", bootstrap);
        TopicSetup.ensure(client, topics);
        final IngestStats stats = new IngestStats();
        final long t0 = System.nanoTime();
        try (Producer<String, byte[]> producer = new KafkaProducer<>(ProducerSettings.telemetry(client))) {
            final KafkaIngestSink sink = new KafkaIngestSink(producer, topics, "bench", stats);
            Formats.adapter("canonical").parse(new ByteArrayInputStream(input),
                ParseContext.defaults(Clock.systemUTC()).withoutTimeWindow(), sink);
            producer.flush();
            sink.checkErrors();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stats.samples() / ((System.nanoTime() - t0) / 1e9);
    }

    /**
     * Runs Kafka's ProducerPerformance in a child JVM with our producer settings and our sample lines as its
     * payloads; returns its records/s. It sends pre-built records (no parsing), so it is the ceiling.
     */
    private static double toolRecordsPerSec(final String bootstrap, final String topic, final int records,
                                            final Path payloadFile) {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
            "org.apache.kafka.tools.ProducerPerformance", "--topic", topic, "--num-records", Integer.toString(records),
            "--payload-file", payloadFile.toString(), "--throughput", "-1", "--command-property"));
        final Properties p = ProducerSettings.telemetry(new Properties());
        cmd.add("bootstrap.servers=" + bootstrap);
        for (final String k : List.of("acks", "enable.idempotence", "compression.type", "linger.ms", "batch.size", "buffer.memory")) {
            cmd.add(k + "=" + p.getProperty(k));
        }
        try {
            final Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            proc.getOutputStream().close();
            String last = null;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (TOOL_RESULT.matcher(line).find()) {
                        last = line;
                    }
                }
            }
            if (proc.waitFor() != 0 || last == null) {
                throw new IllegalStateException("ProducerPerformance failed (exit " + proc.exitValue() + ")");
            }
            final Matcher m = TOOL_RESULT.matcher(last);
            m.find();
            return Double.parseDouble(m.group(2));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run ProducerPerformance", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Counts without keeping anything, so the parse bench measures the adapter. */
    private static final class CountingSink implements IngestSink {
        long samples;
        long rejected;
        long checksum;

        @Override
        public void record() {
        }

        @Override
        public void warn(final String message) {
        }

        @Override
        public void sample(final Sample sample) {
            samples++;
            checksum += sample.ts();
        }

        @Override
        public void reject(final Rejection rejection) {
            rejected++;
        }

        @Override
        public void dropped(final String reason) {
            // the benchmark's generated input drops nothing; counting would only cost time
        }
    }
}
