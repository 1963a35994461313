package dev.fabrictwin.cli.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fabric-twin analyze} in a JVM of its own, as an operator runs it under a supervisor: started with a stable
 * {@code --instance-name} and state directory, killed with SIGKILL (no shutdown hook, no leaving the group, a
 * transaction left open), started again on the same name and directory.
 */
final class AnalyzerProcess implements AutoCloseable {

    private static final Pattern METRICS = Pattern.compile("metrics at (http://\\S+/metrics)");
    private static final Pattern PROCESSING = Pattern.compile("RUNNING \\(processing\\) after ([0-9.]+) s");

    private static final String START_MARK = "chaos: start ";
    private static final String LATE = "fabric_intervals_late_total";
    private final String name;
    private final List<String> command;
    private final Path log;

    private Process process;
    private int starts;
    private double lateInKilledRuns;

    AnalyzerProcess(final String name, final String bootstrap, final String prefix, final String applicationId,
                    final Path dir) {
        this(name, bootstrap, prefix, applicationId, dir, 1);
    }

    /** An instance of an analysis cut into {@code shards} shards ({@code analyze --shards}). */
    AnalyzerProcess(final String name, final String bootstrap, final String prefix, final String applicationId,
                    final Path dir, final int shards) {
        this.name = name;
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String logConfig = AnalyzerProcess.class.getResource("/chaos-log4j2.xml").toString();
        this.command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dlog4j2.configurationFile=" + logConfig,
            "-cp", System.getProperty("java.class.path"), "dev.fabrictwin.cli.FabricTwin", "analyze",
            "--bootstrap", bootstrap, "--topic-prefix", prefix, "--application-id", applicationId,
            "--instance-name", name, "--state-dir", dir.resolve("state").toString(), "--metrics-port", "0",
            "--status-every", "0", "--shards", String.valueOf(shards), "--config", keepLanes(dir).toString());
        this.log = dir.resolve(name + ".log");
    }

    /** Client settings that keep the lanes' records (no purge), so {@link LaneIntervals} can read what was committed. */
    private static Path keepLanes(final Path dir) {
        try {
            return Files.writeString(dir.resolve("chaos.properties"), "repartition.purge.interval.ms=86400000\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a run; the log gets a mark first, so a run killed before it printed anything still has its section. */
    void start() {
        try {
            Files.writeString(log, START_MARK + (starts + 1) + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            starts++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the analyzer", e);
        }
    }

    /** SIGKILL, as {@code kill -9}: nothing in the process runs again. What the run saw late is kept first. */
    void kill() throws InterruptedException, IOException {
        lateInKilledRuns += Math.max(0, counter(LATE, ""));
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** The log's lines that {@code wanted} accepts, each prefixed with this instance's name, and the start marks. */
    List<String> lines(final Predicate<String> wanted) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        return Files.readAllLines(log).stream().filter(l -> l.startsWith(START_MARK) || wanted.test(l))
            .map(l -> name + ": " + l).toList();
    }

    /**
     * Seconds from each run's start until it was first processing, in start order; empty where a run never got
     * there (a run that rebalances later, after a broker restart, prints RUNNING again: only its first counts).
     */
    List<Optional<Double>> processingAfter() throws IOException {
        final String text = Files.exists(log) ? Files.readString(log) : "";
        final ArrayList<Optional<Double>> out = new ArrayList<>();
        final String[] runs = text.split("(?m)^" + START_MARK + "\\d+$");
        for (int i = 1; i < runs.length; i++) {
            final Matcher m = PROCESSING.matcher(runs[i]);
            out.add(m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty());
        }
        return out;
    }

    String name() {
        return name;
    }

    int starts() {
        return starts;
    }

    /**
     * A counter of the running analyzer's {@code /metrics} (its latest start), summed over the series whose line
     * contains {@code label}, or -1 when that cannot be read: what the analysis saw late, or dropped as delivered twice.
     */
    double counter(final String name, final String label) throws IOException {
        final Matcher url = METRICS.matcher(Files.exists(log) ? Files.readString(log) : "");
        String last = null;
        while (url.find()) {
            last = url.group(1);
        }
        if (last == null || !alive()) {
            return -1;
        }
        try {
            final String body = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(last)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().filter(l -> l.startsWith(name) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (ConnectException e) { // it stopped (or restarted) between the log and the request
            return -1;
        }
    }

    /**
     * Intervals the analysis saw late over all runs (read just before each kill, and from the running one): a lane
     * that waited past its bound changes what is published, so a comparison failing with this above 0 says why.
     */
    double intervalsLate() throws IOException {
        return lateInKilledRuns + Math.max(0, counter(LATE, ""));
    }

    String logTail() throws IOException {
        final List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** SIGTERM, as a supervisor stops it: the shutdown hook closes Kafka Streams cleanly. */
    @Override
    public void close() throws InterruptedException {
        if (alive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
