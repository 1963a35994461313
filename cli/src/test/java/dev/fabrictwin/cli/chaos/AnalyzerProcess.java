package dev.fabrictwin.cli.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fabric-twin analyze} in a JVM of its own, as an operator runs it under a supervisor: started with a stable
 * {@code --instance-name} and state directory, killed with SIGKILL (no shutdown hook, no leaving the group, a
 * transaction left open), started again on the same name and directory.
 */
final class AnalyzerProcess implements AutoCloseable {

    private static final Pattern PROCESSING = Pattern.compile("RUNNING \\(processing\\) after ([0-9.]+) s");

    private final String name;
    private final List<String> command;
    private final Path log;
    /** A start killed sooner than this may not have reached processing yet: the schedule can kill twice in a row. */
    private static final long STARTUP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private Process process;
    private int starts;
    private long startedAt;
    private int killedStarting;

    AnalyzerProcess(final String name, final String bootstrap, final String prefix, final String applicationId,
                    final Path dir) {
        this.name = name;
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String logConfig = AnalyzerProcess.class.getResource("/chaos-log4j2.xml").toString();
        this.command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dlog4j2.configurationFile=" + logConfig,
            "-cp", System.getProperty("java.class.path"), "dev.fabrictwin.cli.FabricTwin", "analyze",
            "--bootstrap", bootstrap, "--topic-prefix", prefix, "--application-id", applicationId,
            "--instance-name", name, "--state-dir", dir.resolve("state").toString(), "--metrics-port", "0",
            "--status-every", "0");
        this.log = dir.resolve(name + ".log");
    }

    void start() {
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            starts++;
            startedAt = System.nanoTime();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the analyzer", e);
        }
    }

    /** SIGKILL, as {@code kill -9}: nothing in the process runs again. */
    void kill() throws InterruptedException {
        if (System.nanoTime() - startedAt < STARTUP_NANOS) {
            killedStarting++;
        }
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /**
     * Seconds from each start until that run was first processing, one per start that got there (a run that
     * rebalances later, after a broker restart, prints RUNNING again: only its first counts).
     */
    List<Double> processingAfter() throws IOException {
        final String text = Files.exists(log) ? Files.readString(log) : "";
        final java.util.ArrayList<Double> out = new java.util.ArrayList<>();
        for (final String run : text.split("(?m)^analyze: \\S+ at ")) {
            final Matcher m = PROCESSING.matcher(run);
            if (m.find()) {
                out.add(Double.parseDouble(m.group(1)));
            }
        }
        return out;
    }

    String name() {
        return name;
    }

    int starts() {
        return starts;
    }

    /** Starts killed within {@link #STARTUP_NANOS} of their launch (they may not have been processing yet). */
    int killedStarting() {
        return killedStarting;
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
