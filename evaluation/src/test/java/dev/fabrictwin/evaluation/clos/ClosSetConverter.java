package dev.fabrictwin.evaluation.clos;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

import dev.fabrictwin.cluster.topology.TopologyMerger;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * One single-event set of cisco-ie/telemetry's folder {@code 12/} (a folder, or its {@code .tar.gz}) to what the
 * analyzer reads: canonical samples of every router's interfaces ({@link IosXrSamples}, sorted by time), the CDP map
 * as a topology document ({@link CdpTopology}) and the set's {@code events.csv}. The routers' series are in
 * {@code yang_models/<router>/} (a tarball's sets) or {@code yang_models/<router>.zip} (a folder's sets); the
 * {@code <router>.operational.xml} files beside them are the telemetry subscriptions' own state, not counters.
 *
 * <p>{@link #main}: {@code SET OUT [--trim SECONDS] [--xz]} writes {@code OUT/samples.jsonl} (or
 * {@code samples.jsonl.xz}), {@code OUT/topology.json} and {@code OUT/events.csv}; {@code --trim} keeps only the
 * interfaces on the CDP map and the samples from SECONDS before the first labelled event to SECONDS after the last
 * (how the test fixtures were made).
 */
final class ClosSetConverter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COUNTERS_FILE = "interfaces_interface_latest_generic-counters.csv";
    private static final String BRIEFS_FILE = "interfaces_interface-briefs_interface-brief.csv";

    private ClosSetConverter() {
    }

    /** A converted set; {@code mapPorts} are the {@code device/port} names of the topology's link ends. */
    record ClosSet(List<Sample> samples, ObjectNode topology, List<String> importReport, String eventsCsv,
                   List<ClosEvent> events, Set<String> mapPorts) {

        /**
         * Only the interfaces on the map and those that flapped (their {@code link_flaps} moved: the lab's flapping
         * port is on no map), from {@code marginMs} before the first labelled event to as long after the last.
         */
        ClosSet trimmed(final long marginMs) {
            final List<ClosEvent> labelled = events.stream().filter(ClosEvent::labelled).toList();
            if (labelled.isEmpty()) {
                throw new IllegalArgumentException("no labelled event to trim around");
            }
            final long from = labelled.get(0).tsMs() - marginMs;
            final long to = labelled.get(labelled.size() - 1).tsMs() + marginMs;
            final Map<String, Set<Long>> flaps = new TreeMap<>();
            samples.forEach(s -> flaps.computeIfAbsent(s.device() + "/" + s.port(), p -> new HashSet<>())
                .add(s.counters().getOrDefault("link_flaps", 0L)));
            return new ClosSet(samples.stream()
                .filter(s -> s.ts() >= from && s.ts() <= to && (mapPorts.contains(s.device() + "/" + s.port())
                    || flaps.get(s.device() + "/" + s.port()).size() > 1)).toList(),
                topology, importReport, eventsCsv, events, mapPorts);
        }
    }

    /** Reads a set's folder (or a folder holding it) or its {@code .tar.gz}. */
    static ClosSet read(final Path set) throws IOException {
        if (Files.isRegularFile(set) && set.getFileName().toString().endsWith(".tar.gz")) {
            final Path dir = Files.createTempDirectory("clos-set");
            try {
                final Process tar = new ProcessBuilder("tar", "-xzf", set.toString(), "-C", dir.toString())
                    .redirectErrorStream(true).start();
                final String said = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tar.waitFor() != 0) {
                    throw new IOException("tar -xzf " + set + " failed: " + said.lines().reduce((a, b) -> b).orElse(""));
                }
                return read(dir);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted extracting " + set, e);
            } finally {
                deleteTree(dir);
            }
        }
        final Path root = setRoot(set);
        final String events = Files.readString(root.resolve("events.csv"));
        final TopologyMerger.Result topology = CdpTopology.topology(JSON.readTree(root.resolve("cdp_map.json").toFile()), JSON);
        final Set<String> mapPorts = new HashSet<>();
        topology.document().path("links").forEach(l -> {
            mapPorts.add(l.path("lower").asText());
            mapPorts.add(l.path("upper").asText());
        });
        final List<Sample> samples = new ArrayList<>();
        for (final Map.Entry<String, String[]> router : routerFiles(root.resolve("yang_models")).entrySet()) {
            final String[] texts = router.getValue();
            if (texts[0] != null) {
                samples.addAll(IosXrSamples.convert(texts[0], texts[1] == null ? "" : texts[1]));
            }
        }
        samples.sort(Comparator.comparingLong(Sample::ts).thenComparing(Sample::device).thenComparing(Sample::port));
        return new ClosSet(samples, topology.document(), topology.report().lines(), events, ClosEvent.read(events), mapPorts);
    }

    /** Writes {@code samples.jsonl[.xz]}, {@code topology.json} and {@code events.csv} into {@code out}. */
    static void write(final ClosSet set, final Path out, final boolean xz) throws IOException {
        Files.createDirectories(out);
        try (OutputStream file = Files.newOutputStream(out.resolve(xz ? "samples.jsonl.xz" : "samples.jsonl"));
             OutputStream body = xz ? new XZOutputStream(file, new LZMA2Options(9)) : file;
             BufferedWriter w = new BufferedWriter(new OutputStreamWriter(body, StandardCharsets.UTF_8))) {
            for (final Sample s : set.samples()) {
                w.write(SampleJson.write(s));
                w.newLine();
            }
        }
        Files.writeString(out.resolve("topology.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(set.topology()) + "\n");
        Files.writeString(out.resolve("events.csv"), set.eventsCsv());
    }

    /** {@code SET OUT [--trim SECONDS] [--xz]}: see the class comment. */
    public static void main(final String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ClosSetConverter SET(.tar.gz|folder) OUT [--trim SECONDS] [--xz]");
            System.exit(2);
        }
        ClosSet set = read(Path.of(args[0]));
        final int all = set.samples().size();
        boolean xz = false;
        for (int i = 2; i < args.length; i++) {
            if ("--xz".equals(args[i])) {
                xz = true;
            } else if ("--trim".equals(args[i]) && i + 1 < args.length) {
                set = set.trimmed(Long.parseLong(args[++i]) * 1000);
            } else {
                System.err.println("unknown argument: " + args[i]);
                System.exit(2);
            }
        }
        write(set, Path.of(args[1]), xz);
        set.importReport().stream().limit(1).forEach(System.out::println);
        final Set<String> sampled = new HashSet<>();
        set.samples().forEach(s -> sampled.add(s.device() + "/" + s.port()));
        System.out.printf(Locale.ROOT, "%s: %d samples written (of %d), %d ports sampled, %d of them on the map (%d map ports)%n",
            args[1], set.samples().size(), all, sampled.size(), sampled.stream().filter(set.mapPorts()::contains).count(),
            set.mapPorts().size());
    }

    /** The folder holding {@code events.csv}: the set's own, or the one inside a folder a tarball was extracted to. */
    private static Path setRoot(final Path dir) throws IOException {
        try (Stream<Path> s = Files.find(dir, 3, (p, a) -> p.getFileName().toString().equals("events.csv"))) {
            return s.findFirst().orElseThrow(() -> new IOException("no events.csv in " + dir + ": not a set of cisco-ie/telemetry 12/"))
                .getParent();
        }
    }

    /** Per router, the text of its generic-counters and interface-briefs CSVs, from its folder or its zip. */
    private static Map<String, String[]> routerFiles(final Path yang) throws IOException {
        final Map<String, String[]> out = new TreeMap<>();
        if (!Files.isDirectory(yang)) {
            throw new IOException("no yang_models folder in " + yang.getParent());
        }
        try (Stream<Path> entries = Files.list(yang)) {
            for (final Path p : entries.sorted().toList()) {
                final String name = p.getFileName().toString();
                if (Files.isDirectory(p)) {
                    try (Stream<Path> files = Files.list(p)) {
                        files.forEach(f -> keep(out, name, f.getFileName().toString(), () -> Files.readString(f)));
                    }
                } else if (name.endsWith(".zip")) {
                    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(p))) {
                        for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                            final String entry = e.getName();
                            keep(out, name.substring(0, name.length() - 4), entry.substring(entry.lastIndexOf('/') + 1),
                                () -> new String(zip.readAllBytes(), StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        }
        return out;
    }

    @FunctionalInterface
    private interface Text {
        String read() throws IOException;
    }

    private static void keep(final Map<String, String[]> out, final String router, final String file, final Text text) {
        final int slot = file.endsWith(COUNTERS_FILE) ? 0 : file.endsWith(BRIEFS_FILE) ? 1 : -1;
        if (slot >= 0) {
            try {
                out.computeIfAbsent(router, r -> new String[2])[slot] = text.read();
            } catch (IOException e) {
                throw new UncheckedIOException(router + "/" + file, e);
            }
        }
    }

    private static void deleteTree(final Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
