package dev.fabrictwin.evaluation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.analyzer.replay.Replay;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.truth.TruthJson;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.evaluation.baseline.BaselineReplay;
import dev.fabrictwin.evaluation.baseline.ThresholdRules;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.sim.Twin;

/**
 * A capture someone else made (canonical samples, JSON lines) scored against a hand-written truth: the samples go
 * through {@code replay}'s path (the analyzer's topology, no broker) with the scenario's fabric and jobs, and its
 * root-cause alerts are scored by docs/contracts.md's rules exactly as {@link Evaluation} scores a simulated run.
 * The run spans the capture's own timestamps: from its first sample to its last plus one interval.
 *
 * @param evaluation  the scores, the truth and every alert record (ports: ports that report in the capture)
 * @param startMs     the capture's first sample time, epoch ms
 * @param endMs       its last sample time plus one sample interval
 * @param intervalMs  the scenario's sample interval
 * @param falseRoots  scored root-cause alerts (OPEN records) that are not true alerts, by first-seen time
 */
public record CaptureEvaluation(Evaluation evaluation, long startMs, long endMs, long intervalMs, List<Alert> falseRoots) {

    public CaptureEvaluation {
        falseRoots = List.copyOf(falseRoots);
    }

    /** False root alerts that opened while no fault was active, per 10,000 reporting ports per day of such time. */
    public double falseRootsPer10kPortsPerDay() {
        final Scorecard.Line all = evaluation.analyzer().overall();
        final double portDays = evaluation.ports() * all.healthyHours() / 24.0;
        return portDays <= 0 ? Double.NaN : all.falseHealthy() * 10_000.0 / portDays;
    }

    /**
     * Replays {@code samples} through the analyzer and scores it against the truth records in {@code truth} (JSON
     * lines; an empty file is a healthy capture). Throws {@link IllegalArgumentException} with a one-line reason
     * when a file is missing, compressed, empty of samples or unreadable.
     */
    public static CaptureEvaluation run(final Scenario scenario, final Path samples, final Path truth,
                                        final boolean withBaseline, final int shards) throws IOException {
        final List<TruthRecord> faults = readTruth(truth);
        final Span span = scan(samples);
        final long interval = scenario.sampleInterval().toMillis();
        final long start = span.firstMs();
        final long end = span.lastMs() + interval;
        final List<Alert> alerts = new ArrayList<>();
        final Replay.Result result = Replay.run(scenario, samples, alerts::add, h -> { }, n -> { }, shards);
        final Scorecard analyzer = Scorecard.score(faults, alerts, interval, start, end);
        final Scorecard baseline = withBaseline ? Scorecard.score(faults, BaselineReplay.run(
            Twin.healthy(scenario, ModelParams.defaults()).fabric(), ThresholdRules.defaults(), interval, samples),
            interval, start, end) : null;
        final List<Alert> falseRoots = alerts.stream()
            .filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() != FaultType.JOB_BOTTLENECK)
            .filter(a -> faults.stream().noneMatch(f -> f.start() < end && f.localizedBy(a, interval)))
            .sorted(Comparator.comparingLong(Alert::firstSeen).thenComparing((Alert a) -> a.id())).toList();
        return new CaptureEvaluation(new Evaluation(scenario.name(), analyzer, baseline, result.samples(), span.ports(),
            faults, alerts), start, end, interval, falseRoots);
    }

    /**
     * Checks both files before anything runs (so a mistake is one line, not a line after progress): each exists and is
     * not compressed, and every truth record reads.
     */
    public static void check(final Path samples, final Path truth) throws IOException {
        requireReadable(samples, "samples");
        readTruth(truth);
    }

    /** Truth records, one JSON object per line; blank lines are skipped. */
    static List<TruthRecord> readTruth(final Path file) throws IOException {
        requireReadable(file, "truth");
        final List<TruthRecord> out = new ArrayList<>();
        int n = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    final JsonNode o = Json.MAPPER.readTree(line);
                    if (!o.isObject() || !o.hasNonNull("type") || !o.hasNonNull("start") || !o.hasNonNull("end")
                        || !o.path("target").isObject()) {
                        throw new IllegalArgumentException("not a truth record (needs type, target, start, end)");
                    }
                    final TruthRecord t = TruthJson.fromJson(o);
                    if (t.end() < t.start()) {
                        throw new IllegalArgumentException("end " + t.end() + " is before start " + t.start());
                    }
                    out.add(t);
                } catch (IOException | RuntimeException e) {
                    throw new IllegalArgumentException(file + ":" + n + ": " + firstLine(e.getMessage()));
                }
            }
        }
        return out;
    }

    /** The first and last sample time and the ports reporting, read from the capture's top-level fields. */
    record Span(long firstMs, long lastMs, int ports) {
    }

    static Span scan(final Path samples) throws IOException {
        requireReadable(samples, "samples");
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        final Set<String> ports = new HashSet<>();
        final JsonFactory factory = Json.MAPPER.getFactory();
        int n = 0;
        try (BufferedReader r = Files.newBufferedReader(samples, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                long ts = Long.MIN_VALUE;
                String device = null;
                String port = null;
                try (JsonParser p = factory.createParser(line)) {
                    if (p.nextToken() != JsonToken.START_OBJECT) {
                        continue; // not a sample: the replay dead-letters it, as the analyzer would
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        final String name = p.currentName();
                        final JsonToken v = p.nextToken();
                        if ("ts".equals(name) && v == JsonToken.VALUE_NUMBER_INT) {
                            ts = p.getLongValue();
                        } else if ("device".equals(name) && v == JsonToken.VALUE_STRING) {
                            device = p.getText();
                        } else if ("port".equals(name) && v == JsonToken.VALUE_STRING) {
                            port = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                } catch (IOException e) {
                    continue; // malformed: dead-lettered by the replay
                }
                if (ts == Long.MIN_VALUE || device == null || port == null) {
                    continue;
                }
                first = Math.min(first, ts);
                last = Math.max(last, ts);
                ports.add(device + "/" + port);
            }
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no canonical samples in " + samples + " (" + n
                + " lines; one JSON object per line with ts, device, port, as docs/contracts.md 'Canonical sample')");
        }
        return new Span(first, last, ports.size());
    }

    private static void requireReadable(final Path file, final String what) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(what + " file not found: " + file);
        }
        final byte[] head = new byte[6];
        final int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(head, 0, head.length);
        }
        final String compression = read >= 6 && (head[0] & 0xff) == 0xfd && head[1] == '7' && head[2] == 'z'
            && head[3] == 'X' && head[4] == 'Z' && head[5] == 0 ? "xz"
            : read >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b ? "gzip"
            : read >= 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5 && (head[2] & 0xff) == 0x2f
                && (head[3] & 0xff) == 0xfd ? "zstd" : null;
        if (compression != null) {
            throw new IllegalArgumentException(what + " file " + file + " is " + compression + "-compressed; decompress it "
                + "first (e.g. 'xz -dc F.xz > F', 'gzip -dc', 'zstd -dc') and pass the plain JSON lines");
        }
    }

    private static String firstLine(final String message) {
        if (message == null) {
            return "unreadable";
        }
        final int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }
}
