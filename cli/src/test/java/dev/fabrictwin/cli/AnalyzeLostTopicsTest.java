package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;

/**
 * A broker that comes back without its data: {@code analyze}, in a process of its own with the launcher's
 * logging, says so in one line and exits 1. Before, it sat {@code RUNNING … (0/s)} for good while its global
 * consumer logged about 1,300 lines a second.
 */
class AnalyzeLostTopicsTest {

    @TempDir
    Path dir;

    @Test
    void shouldSayInOneLineThatItsTopicsAreGoneAndExitOne() throws Exception {
        final int port = freePort();
        final List<String> lines = new CopyOnWriteArrayList<>();
        final CountDownLatch running = new CountDownLatch(1);
        Process analyze = null;
        Thread reader = null;
        EmbeddedKafka broker = EmbeddedKafka.builder().port(port).start();
        try {
            analyze = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-Dlog4j2.configurationFile=" + AnalyzeLostTopicsTest.class.getResource("/log4j2.xml"),
                "-cp", System.getProperty("java.class.path"), "dev.fabrictwin.cli.FabricTwin", "analyze",
                "--bootstrap", broker.bootstrapServers(), "--metrics-port", "0", "--status-every", "0",
                "--state-dir", dir.resolve("state").toString())
                .redirectErrorStream(true).start();
            reader = read(analyze, lines, running);
            assertThat(running.await(120, TimeUnit.SECONDS)).as("analyze was processing; it printed:%n%s",
                String.join("\n", lines)).isTrue();

            broker.close(); // its data goes with it; the JDK's listeners reuse the port at once
            broker = null;
            broker = EmbeddedKafka.builder().port(port).start();

            assertThat(analyze.waitFor(90, TimeUnit.SECONDS)).as("analyze exited; it printed:%n%s",
                String.join("\n", lines)).isTrue();
            reader.join(TimeUnit.SECONDS.toMillis(10)); // the rest of its output, up to the end of the stream
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

    /** Collects the process's output lines as they come; {@code running} opens on its first "processing" line. */
    private static Thread read(final Process process, final List<String> lines, final CountDownLatch running) {
        final Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                    if (line.startsWith("analyze: RUNNING (processing)")) {
                        running.countDown();
                    }
                }
            } catch (IOException e) {
                lines.add("(output unreadable: " + e.getMessage() + ")");
            }
        }, "analyze-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
