package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.kafka.embedded.PortInUseException;

/**
 * A broker that comes back without its data (issue 32): {@code analyze}, in a process of its own with the launcher's
 * logging, says so in one line and exits 1. Before, it sat {@code RUNNING … (0/s)} for good while its global
 * consumer logged about 1,300 lines a second.
 */
class AnalyzeLostTopicsTest {

    @TempDir
    Path dir;

    @Test
    void shouldSayInOneLineThatItsTopicsAreGoneAndExitOne() throws Exception {
        final int port = freePort();
        final Path log = dir.resolve("analyze.log");
        Process analyze = null;
        EmbeddedKafka broker = EmbeddedKafka.builder().port(port).start();
        try {
            analyze = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-Dlog4j2.configurationFile=" + AnalyzeLostTopicsTest.class.getResource("/log4j2.xml"),
                "-cp", System.getProperty("java.class.path"), "dev.fabrictwin.cli.FabricTwin", "analyze",
                "--bootstrap", broker.bootstrapServers(), "--metrics-port", "0", "--status-every", "0",
                "--state-dir", dir.resolve("state").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            awaitLine(log, "analyze: RUNNING (processing)", analyze);

            broker.close(); // its data goes with it
            broker = null;
            broker = startOn(port);

            assertThat(analyze.waitFor(90, TimeUnit.SECONDS)).as("analyze exited; it printed:%n%s", Files.readString(log))
                .isTrue();
            final List<String> lines = Files.readAllLines(log);
            assertThat(analyze.exitValue()).as(String.join("\n", lines)).isEqualTo(1);
            assertThat(lines).contains("analyze: topic telemetry.samples is gone from Kafka at 127.0.0.1:" + port
                + " (a broker that came back without its data, or the topic deleted): exiting 1; started again, "
                + "analyze creates the topics and begins afresh");
            // the consumers' complaint about the missing partitions a few times, not on every poll; Kafka Streams'
            // own account of its failed rebalance (a stack trace per thread) once
            assertThat(lines.stream().filter(l -> l.contains("FetchCollector"))).hasSizeLessThanOrEqualTo(3);
            assertThat(lines).as(String.join("\n", lines)).hasSizeLessThan(400)
                // Kafka Streams' assignor warns of a handler it cannot see is on: filtered out by the launcher's logging
                .noneMatch(l -> l.contains("not enabled for the GlobalThread"));
        } finally {
            if (analyze != null) {
                analyze.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** A fresh broker on {@code port}, once the old one's listener has let it go. */
    private static EmbeddedKafka startOn(final int port) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return EmbeddedKafka.builder().port(port).start();
            } catch (PortInUseException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500); // the port, not Kafka: nothing to subscribe to
            }
        }
    }

    private static void awaitLine(final Path log, final String start, final Process process) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (Files.exists(log) && Files.readAllLines(log).stream().anyMatch(l -> l.startsWith(start))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no line starting '" + start + "' from analyze:\n" + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
