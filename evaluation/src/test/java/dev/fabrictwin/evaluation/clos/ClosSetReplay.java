package dev.fabrictwin.evaluation.clos;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.tukaani.xz.XZInputStream;

import dev.fabrictwin.analyzer.replay.CaptureInterval;
import dev.fabrictwin.analyzer.replay.Replay;
import dev.fabrictwin.analyzer.replay.ReplayDocuments;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A converted set ({@code samples.jsonl[.xz]}, {@code topology.json}, {@code events.csv}) through the real analysis
 * as {@code replay --topology topology.json --samples F} runs it: no declared jobs, the interval read from the capture.
 * What came out, set against the set's labelled events.
 */
final class ClosSetReplay {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClosSetReplay() {
    }

    /** What one set's replay opened, with what the telemetry shows about each labelled link event. */
    record Outcome(String set, long intervalMs, Replay.Result result, List<Alert> alerts, List<ClosEvent> events,
                   Map<String, String> peers, Map<String, TreeMap<Long, Sample>> series) {

        /** The root-cause alerts opened, in order. */
        List<Alert> rootsOpened() {
            return alerts.stream().filter(a -> a.rootCause() && a.state() == Alert.State.OPEN).toList();
        }

        /** The far end ({@code device/port}) of a topology port, if the CDP map links it. */
        Optional<String> peer(final String devicePort) {
            return Optional.ofNullable(peers.get(devicePort));
        }

        /**
         * The first sample at or after {@code fromMs}, of either end of the link at {@code devicePort}, whose
         * {@code oper_up} is {@code up}: the evidence of a shutdown (0) or an enable (1).
         */
        Optional<Sample> firstShowing(final String devicePort, final long fromMs, final boolean up) {
            final List<String> ends = new ArrayList<>(List.of(devicePort));
            peer(devicePort).ifPresent(ends::add);
            return ends.stream().map(series::get).filter(s -> s != null)
                .flatMap(s -> s.tailMap(fromMs, true).values().stream()
                    .filter(x -> x.gauges().containsKey("oper_up") && (x.gauges().get("oper_up") > 0.5) == up).limit(1))
                .min(Comparator.comparingLong(Sample::ts));
        }

        /** The start of the interval {@code s} ends: its port's sample before it (its own time when it is the first). */
        long intervalStart(final Sample s) {
            final Map.Entry<Long, Sample> before = series.get(s.device() + "/" + s.port()).lowerEntry(s.ts());
            return before == null ? s.ts() : before.getKey();
        }

        /** The root LINK_DOWN opened on the link of {@code devicePort} (both its devices named), if any. */
        Optional<Alert> linkDown(final String devicePort) {
            final String device = devicePort.substring(0, devicePort.indexOf('/'));
            final String peerDevice = peer(devicePort).map(p -> p.substring(0, p.indexOf('/'))).orElse("?");
            return rootsOpened().stream().filter(a -> a.type() == FaultType.LINK_DOWN
                && a.entity().touches(device) && a.entity().touches(peerDevice)).findFirst();
        }

        /** The per-set report: samples, ports, root alerts and what they name, each labelled event and what met it. */
        String report() {
            final Set<String> sampled = series.keySet();
            final long onMap = sampled.stream().filter(peers::containsKey).count();
            final StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT, "%s: %d samples, interval %d ms, %d ports sampled, %d of %d map ports "
                    + "sampled, unmatched %s, %d dead letters%n", set, result.samples(), intervalMs, sampled.size(), onMap,
                peers.size(), result.unmatched(), result.deadLettered()));
            final Map<String, List<String>> byType = new TreeMap<>();
            for (final Alert a : rootsOpened()) {
                byType.computeIfAbsent(a.type().name(), t -> new ArrayList<>()).add(a.entity().key() + String.format(
                    Locale.ROOT, " @%+.1fs", (a.firstSeen() - firstLabel()) / 1000.0));
            }
            out.append("  root alerts opened: ").append(byType.isEmpty() ? "none" : byType.entrySet().stream()
                .map(e -> e.getValue().size() + " " + e.getKey() + " " + e.getValue()).collect(Collectors.joining("; ")))
                .append(String.format("  (times from the first labelled event)%n"));
            for (final ClosEvent e : events) {
                if (e.labelled()) {
                    out.append("  event ").append(e.event()).append(' ').append(e.device()).append(' ').append(e.iface())
                        .append(' ').append(e.comment()).append(": ").append(judged(e)).append(String.format("%n"));
                }
            }
            return out.toString();
        }

        private long firstLabel() {
            return events.stream().filter(ClosEvent::labelled).mapToLong(ClosEvent::tsMs).min().orElse(0);
        }

        private String judged(final ClosEvent e) {
            final String port = e.device() + "/" + e.iface();
            final boolean down = e.event().startsWith("shutdown");
            if (!down && !e.event().startsWith("enable_interface")) {
                return "not a link event";
            }
            if (peer(port).isEmpty() && !series.containsKey(port)) {
                return "its port is neither on the map nor sampled";
            }
            final Optional<Sample> evidence = firstShowing(port, e.tsMs(), !down);
            if (evidence.isEmpty()) {
                return "no sample shows it";
            }
            final Sample s = evidence.get();
            final String shown = String.format(Locale.ROOT, "first shown by %s/%s at %+.1fs (interval from %+.1fs)",
                s.device(), s.port(), (s.ts() - e.tsMs()) / 1000.0, (intervalStart(s) - e.tsMs()) / 1000.0);
            if (!down) {
                return shown;
            }
            return shown + linkDown(port).map(a -> String.format(Locale.ROOT, "; LINK_DOWN %s firstSeen %+.1fs",
                a.entity().key(), (a.firstSeen() - e.tsMs()) / 1000.0)).orElse("; no LINK_DOWN on its link");
        }
    }

    /** Replays the set in {@code dir}; the samples are decompressed into {@code work} first when they are xz. */
    static Outcome replay(final Path dir, final Path work) throws IOException {
        final Path samples = plainSamples(dir, work);
        final long intervalMs = CaptureInterval.infer(samples).orElseThrow();
        final ReplayDocuments documents = ReplayDocuments.read(dir.resolve("topology.json"), null, 1)
            .withSampleIntervalMs(intervalMs);
        final List<Alert> alerts = new ArrayList<>();
        final Replay.Result result = Replay.run(documents, samples, alerts::add, json -> { }, n -> { }, 1);
        final Map<String, TreeMap<Long, Sample>> series = new HashMap<>();
        for (final String line : Files.readAllLines(samples, StandardCharsets.UTF_8)) {
            final Sample s;
            try {
                s = SampleJson.read(line);
            } catch (SampleFormatException e) {
                throw new IOException(samples + ": " + e.getMessage(), e);
            }
            series.computeIfAbsent(s.device() + "/" + s.port(), p -> new TreeMap<>()).put(s.ts(), s);
        }
        return new Outcome(dir.getFileName().toString(), intervalMs, result, alerts,
            ClosEvent.read(Files.readString(dir.resolve("events.csv"))), peers(dir.resolve("topology.json")), series);
    }

    /** Each link end of the topology to the other. */
    private static Map<String, String> peers(final Path topology) throws IOException {
        final Map<String, String> peers = new HashMap<>();
        for (final JsonNode l : JSON.readTree(topology.toFile()).path("links")) {
            peers.put(l.path("lower").asText(), l.path("upper").asText());
            peers.put(l.path("upper").asText(), l.path("lower").asText());
        }
        return peers;
    }

    private static Path plainSamples(final Path dir, final Path work) throws IOException {
        final Path plain = dir.resolve("samples.jsonl");
        if (Files.exists(plain)) {
            return plain;
        }
        final Path out = work.resolve(dir.getFileName() + ".samples.jsonl");
        try (InputStream in = new XZInputStream(Files.newInputStream(dir.resolve("samples.jsonl.xz")))) {
            Files.copy(in, out);
        }
        return out;
    }
}
