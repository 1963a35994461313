package dev.fabrictwin.ingest.format.sysfs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.support.Rounds;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;

/**
 * {@code ingest --sysfs DIR}: a live {@code /sys/class/infiniband} tree read in place, once per round. Each round
 * lists {@code <hca>/ports/<n>/} and reads {@code counters/*}, {@code hw_counters/*}, {@code state} and {@code rate}
 * (HCAs by name, ports by number, files by name), and hands each file to {@link SysfsPorts}, the mapping the ttar
 * reader ({@link SysfsInfinibandAdapter}) uses: the same tree gives the same samples. Device: the context's;
 * time: the round's start.
 *
 * <p>A file that cannot be read (permission denied, or gone between listing and reading, as a port's files are when
 * the port goes away) is left out of its port's sample and counted as a dropped value ({@value #UNREADABLE}) with
 * one warning per file and cause ({@code sink.warn}, counted over rounds; a vanished port is one warning); the round
 * goes on.
 */
public final class SysfsTreeReader {

    /** The dropped-value reason of a file that could not be read. */
    public static final String UNREADABLE = "unreadable-file";

    private final Path root;
    private final ParseContext context;
    private final Clock clock;
    private long rounds;

    public SysfsTreeReader(final Path root, final ParseContext context, final Clock clock) {
        this.root = root;
        this.context = context;
        this.clock = clock;
    }

    /**
     * Why {@code dir} cannot be read as a {@code /sys/class/infiniband} tree (one line), or empty when it can: it must
     * be a directory holding at least one {@code <hca>/ports/<n>/counters} directory.
     */
    public static Optional<String> problem(final Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.of(Files.exists(dir) ? "not a directory: " + dir : "sysfs directory not found: " + dir);
        }
        for (final Path hca : list(dir)) {
            for (final Path port : list(hca.resolve("ports"))) {
                if (Files.isDirectory(port.resolve("counters"))) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of("not a /sys/class/infiniband tree: no <hca>/ports/<n>/counters under " + dir);
    }

    /** A directory's entries by name (ports by number), or none when it cannot be listed. */
    private static List<Path> list(final Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted(BY_NAME).toList();
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    /** By name, a number before a longer one ({@code 2} before {@code 10}): ports in order, the rest as ttar lists them. */
    private static final Comparator<Path> BY_NAME = Comparator.comparing((Path p) -> p.getFileName().toString(),
        (a, b) -> a.chars().allMatch(Character::isDigit) && b.chars().allMatch(Character::isDigit) && a.length() != b.length()
            ? Integer.compare(a.length(), b.length()) : a.compareTo(b));

    /** One round: every port's files read once, its sample delivered to {@code sink}. */
    public void readOnce(final IngestSink sink) {
        final long now = clock.millis();
        final ParseContext round = context.withDefaultTimestamp(now);
        final SysfsPorts ports = new SysfsPorts(round.maxRecordBytes());
        final List<Path> hcas;
        try {
            hcas = listOrThrow(root);
        } catch (IOException e) {
            unreadable(sink, root, null, e);
            rounds++;
            return;
        }
        for (final Path hca : hcas) {
            final String hcaName = hca.getFileName().toString();
            final Path portsDir = hca.resolve("ports");
            if (!Files.isDirectory(portsDir)) {
                continue; // not an HCA (a stray file)
            }
            final List<Path> portDirs;
            try {
                portDirs = listOrThrow(portsDir);
            } catch (IOException e) {
                unreadable(sink, portsDir, null, e);
                continue;
            }
            for (final Path port : portDirs) {
                readPort(port, hcaName, ports, sink, round.maxRecordBytes());
            }
        }
        ports.finish(round, sink);
        rounds++;
    }

    private void readPort(final Path port, final String hca, final SysfsPorts ports, final IngestSink sink, final int limit) {
        final String rel = hca + "/ports/" + port.getFileName();
        final String key = hca + "/" + port.getFileName();
        final List<Path> entries;
        try {
            entries = listOrThrow(port);
        } catch (IOException e) {
            unreadable(sink, port, key, e);
            return;
        }
        final List<Path> files = new ArrayList<>();
        for (final Path e : entries) {
            final String name = e.getFileName().toString();
            if ((name.equals("counters") || name.equals("hw_counters")) && Files.isDirectory(e)) {
                try {
                    files.addAll(listOrThrow(e));
                } catch (IOException ex) {
                    unreadable(sink, e, key, ex);
                }
            } else if (SysfsPorts.reads(rel + "/" + name)) {
                files.add(e);
            }
        }
        for (final Path f : files) {
            final String path = rel + "/" + port.relativize(f);
            if (!SysfsPorts.reads(path)) {
                continue;
            }
            final byte[] bytes;
            try {
                bytes = read(f, limit);
            } catch (IOException e) {
                unreadable(sink, f, key, e);
                continue;
            }
            final String text = new String(bytes, StandardCharsets.UTF_8);
            final byte[] raw = (path + "\n" + text.strip()).getBytes(StandardCharsets.UTF_8);
            if (bytes.length > limit) {
                ports.reject(path, new Rejection(raw, RejectReason.OVERSIZED, "file " + path + " is longer than " + limit
                    + " bytes", SysfsPorts.FORMAT, f.toString()));
                continue;
            }
            ports.file(path, text.strip(), raw, -1, f.toString());
        }
    }

    /** At most {@code limit + 1} bytes (sysfs files report a size of 4096 whatever they hold: read to the end). */
    private static byte[] read(final Path f, final int limit) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return in.readNBytes(limit + 1);
        }
    }

    private static List<Path> listOrThrow(final Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted(BY_NAME).toList();
        }
    }

    /** {@code port}: the {@code <hca>/<n>} the file belongs to, or null. */
    private static void unreadable(final IngestSink sink, final Path file, final String port, final IOException e) {
        sink.dropped(UNREADABLE);
        if (e instanceof NoSuchFileException) {
            sink.warn("sysfs: " + (port != null ? "port " + port : file.toString()) + " vanished while being read "
                + "(files listed, then gone)");
        } else if (e instanceof AccessDeniedException) {
            sink.warn("sysfs: cannot read " + file + ": permission denied");
        } else {
            final String message = e.getMessage() == null ? "" : ": " + e.getMessage().replace(file.toString(), "").strip();
            sink.warn("sysfs: cannot read " + file + " (" + e.getClass().getSimpleName() + message + ")");
        }
    }

    /**
     * Reads every {@code interval} (measured from each round's start) until {@code maxRounds} rounds are done (0: until
     * interrupted).
     */
    public void run(final IngestSink sink, final Duration interval, final long maxRounds) throws InterruptedException {
        Rounds.every(interval, maxRounds, () -> readOnce(sink));
    }

    public long rounds() {
        return rounds;
    }

    /** {@code sysfs: 2 rounds of /sys/class/infiniband}. */
    public String summary() {
        return "sysfs: " + rounds + " rounds of " + root;
    }
}
