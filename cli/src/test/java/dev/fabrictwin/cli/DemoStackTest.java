package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.cli.stack.DashboardsTest;
import dev.fabrictwin.cli.stack.DebianTools;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;

/**
 * The demo end to end, and the checks that run here without Docker: {@code demo} on its built-in 256-GPU scenario
 * (4x real time) prints its alerts and a score; while it runs, a real Prometheus (Debian's package, installed by
 * {@code scripts/install-debian-tools.sh}) scrapes its {@code /metrics} and every Grafana panel's query returns
 * data through Prometheus's HTTP API; and {@code kcat}, a non-Java Kafka client, reads {@code fabric.alerts}
 * from the demo's broker as JSON the analyzer's own codec parses.
 */
class DemoStackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The demo runs ~75 s at 4x; a loaded 2-core machine gets ample room before the test gives up. */
    private static final Duration DEMO_DEADLINE = Duration.ofMinutes(8);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void shouldRunTheDemoScoreItAnswerEveryDashboardQueryAndLetKcatReadTheAlerts() throws Exception {
        final String toolsProblem = DebianTools.missing("prometheus", "kcat").orElse(null);
        final int kafkaPort = freePort();
        final int metricsPort = freePort();
        final List<String> queries = DashboardsTest.panelQueries(Path.of("..", "grafana", "dashboards")).stream()
            .distinct().toList();
        final Set<String> answered = new LinkedHashSet<>();
        final List<Alert> readByKcat = new ArrayList<>();
        final FabricTwinCliTest.Run run;
        if (toolsProblem == null) {
            // Prometheus is up before the demo starts, so it scrapes the whole run; the queries are asked afterwards
            // over the run's time range, so no answer depends on when a poll happened to look
            final Process prometheus = startPrometheus(metricsPort);
            try {
                final int promPort = Integer.parseInt(Files.readString(dir.resolve("prom.port")).strip());
                awaitReady(promPort, prometheus);
                final long startSeconds = Instant.now().getEpochSecond() - 1;
                final CompletableFuture<FabricTwinCliTest.Run> demo = startDemo(kafkaPort, metricsPort);
                // the broker lives as long as the demo: kcat reads while it runs (the first alert opens ~10 s in)
                while (!demo.isDone() && readByKcat.isEmpty()) {
                    readByKcat.addAll(kcatAlerts(kafkaPort));
                    awaitAtMost(demo, Duration.ofSeconds(1));
                }
                run = demo.get(DEMO_DEADLINE.toMinutes(), TimeUnit.MINUTES);
                final long endSeconds = Instant.now().getEpochSecond() + 1;
                // Prometheus has every scrape by now; a slow query engine on a busy machine gets a deadline
                final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                do {
                    for (final String q : queries) {
                        if (!answered.contains(q) && hasDataBetween(promPort, q, startSeconds, endSeconds)) {
                            answered.add(q);
                        }
                    }
                } while (answered.size() < queries.size() && System.nanoTime() < deadline
                    && !awaitExit(prometheus, Duration.ofSeconds(1)));
            } finally {
                prometheus.destroy();
                if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            }
        } else {
            run = startDemo(kafkaPort, metricsPort).get(DEMO_DEADLINE.toMinutes(), TimeUnit.MINUTES);
        }

        assertThat(run.exitCode()).as("demo exit code; stderr: %s", run.err()).isZero();
        assertThat(run.out()).contains("Kafka (KRaft) ready at 127.0.0.1:" + kafkaPort)
            .containsPattern("OPEN +LINK_DEGRADED +link:leaf-2~spine-1 +ROOT CAUSE")
            .containsPattern("OPEN +PFC_STORM +port:host-60/nic1 +ROOT CAUSE")
            .containsPattern("OPEN +LINK_DOWN +link:leaf-6~spine-3 +ROOT CAUSE")
            .containsPattern("RESOLVED +PFC_STORM +port:host-60/nic1")
            .contains("Score against the injected faults", "recall 1.00, precision 1.00, localization 1.00");
        if (toolsProblem != null) {
            DebianTools.skipOrFail("the demo ran and scored; the Prometheus and kcat checks did not run: " + toolsProblem);
        }
        assertThat(queries).as("panel queries in grafana/dashboards").hasSizeGreaterThan(10);
        assertThat(answered).as("dashboard queries that returned data from Prometheus scraping the demo (log: %s)",
                dir.resolve("prometheus.log"))
            .containsExactlyInAnyOrderElementsOf(queries);
        assertThat(readByKcat).as("fabric.alerts as read by kcat")
            .anySatisfy(a -> {
                assertThat(a.state()).isEqualTo(Alert.State.OPEN);
                assertThat(a.rootCause()).isTrue();
                assertThat(a.id()).isEqualTo("LINK_DEGRADED:link:leaf-2~spine-1");
            });
    }

    private static CompletableFuture<FabricTwinCliTest.Run> startDemo(final int kafkaPort, final int metricsPort) {
        return CompletableFuture.supplyAsync(() -> FabricTwinCliTest.run(
            "demo", "--speed", "4", "--port", Integer.toString(kafkaPort), "--metrics-port", Integer.toString(metricsPort)));
    }

    /** Waits until Prometheus answers {@code /-/ready}, failing if it exits or is not ready within a minute. */
    private void awaitReady(final int promPort, final Process prometheus) throws Exception {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!ready(promPort)) {
            if (awaitExit(prometheus, Duration.ofMillis(250))) {
                throw new AssertionError("prometheus exited with " + prometheus.exitValue() + ": "
                    + Files.readString(dir.resolve("prometheus.log")));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("prometheus not ready within 60 s: " + Files.readString(dir.resolve("prometheus.log")));
            }
        }
    }

    private static boolean ready(final int promPort) {
        return HttpProbe.answers("http://127.0.0.1:" + promPort + "/-/ready");
    }

    /** A bounded wait on a process (not a sleep): true when it has exited. */
    private static boolean awaitExit(final Process p, final Duration atMost) throws InterruptedException {
        return p.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A bounded wait on the demo itself (not a sleep). */
    private static void awaitAtMost(final CompletableFuture<?> demo, final Duration atMost) throws Exception {
        try {
            demo.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
            // poll again
        }
    }

    /** Prometheus scraping the demo every second, labelled as the compose stack labels it (fabric="demo"). */
    private Process startPrometheus(final int metricsPort) throws IOException {
        final int promPort = freePort();
        Files.writeString(dir.resolve("prom.port"), Integer.toString(promPort));
        Files.writeString(dir.resolve("prometheus.yml"), """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            scrape_configs:
              - job_name: demo
                honor_labels: true
                static_configs: [{targets: ['127.0.0.1:%d']}]
                relabel_configs: [{source_labels: [job], target_label: fabric}]
            """.formatted(metricsPort));
        return new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
            "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + promPort)
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    }

    /** Whether the query returned any sample at any second of [from, to] (epoch seconds), through the range API. */
    private static boolean hasDataBetween(final int promPort, final String query, final long from, final long to) {
        try {
            final HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + promPort
                + "/api/v1/query_range?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&start=" + from + "&end=" + to + "&step=1"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return false;
            }
            final JsonNode result = JSON.readTree(r.body()).path("data").path("result");
            return result.isArray() && !result.isEmpty();
        } catch (IOException e) {
            return false; // asked again until the deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Every record on fabric.alerts so far, read by kcat (committed records only) and parsed as alerts. */
    private static List<Alert> kcatAlerts(final int kafkaPort) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("kcat", "-b", "127.0.0.1:" + kafkaPort, "-t", "fabric.alerts", "-C", "-e",
            "-o", "beginning", "-q", "-m", "10", "-X", "isolation.level=read_committed", "-f", "%s\\n").start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            return List.of();
        }
        final List<Alert> alerts = new ArrayList<>();
        for (final String line : out.split("\\R")) {
            if (!line.isBlank()) {
                alerts.add(AlertJson.read(line.getBytes(StandardCharsets.UTF_8)));
            }
        }
        return alerts;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
