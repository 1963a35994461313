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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.alert.Alert;
import dev.fabrictwin.analyzer.alert.AlertJson;
import dev.fabrictwin.cli.stack.DashboardsTest;
import dev.fabrictwin.cli.stack.DebianTools;

/**
 * The demo end to end, and the checks that run here without Docker: {@code demo} on its built-in 256-GPU scenario
 * (4x real time) prints its alerts and a score; while it runs, a real Prometheus (Debian's package, installed by
 * {@code scripts/install-debian-tools.sh}) scrapes its {@code /metrics} and every Grafana panel's query returns
 * data through Prometheus's HTTP API; and {@code kcat}, a non-Java Kafka client, reads {@code fabric.alerts}
 * from the demo's broker as JSON the analyzer's own codec parses.
 */
class DemoStackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void shouldRunTheDemoScoreItAnswerEveryDashboardQueryAndLetKcatReadTheAlerts() throws Exception {
        // tools first: an install that ends after the demo would leave nothing to scrape
        final String toolsProblem = DebianTools.ensure("prometheus", "kcat").orElse(null);
        final int kafkaPort = freePort();
        final int metricsPort = freePort();
        final CompletableFuture<FabricTwinCliTest.Run> demo = CompletableFuture.supplyAsync(() -> FabricTwinCliTest.run(
            "demo", "--speed", "4", "--port", Integer.toString(kafkaPort), "--metrics-port", Integer.toString(metricsPort)));

        final List<String> queries = DashboardsTest.panelQueries(Path.of("..", "grafana", "dashboards")).stream()
            .distinct().toList();
        final Set<String> answered = new LinkedHashSet<>();
        final List<Alert> readByKcat = new ArrayList<>();
        if (toolsProblem == null) {
            final Process prometheus = startPrometheus(metricsPort);
            try {
                final int promPort = Integer.parseInt(Files.readString(dir.resolve("prom.port")).strip());
                // poll while the demo runs: some series exist only while an alert is open
                while (!demo.isDone() && (answered.size() < queries.size() || readByKcat.isEmpty())) {
                    for (final String q : queries) {
                        if (!answered.contains(q) && hasData(promPort, q)) {
                            answered.add(q);
                        }
                    }
                    if (readByKcat.isEmpty()) {
                        readByKcat.addAll(kcatAlerts(kafkaPort));
                    }
                    try {
                        demo.get(1, TimeUnit.SECONDS); // a bounded wait on the demo itself, not a sleep
                    } catch (TimeoutException stillRunning) {
                        // poll again
                    }
                }
            } finally {
                prometheus.destroy();
                if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            }
        }

        final FabricTwinCliTest.Run run = demo.get(5, TimeUnit.MINUTES);
        assertThat(run.exitCode()).as("demo exit code; stderr: %s", run.err()).isZero();
        assertThat(run.out()).contains("Kafka (KRaft) ready at 127.0.0.1:" + kafkaPort)
            .containsPattern("OPEN +LINK_DEGRADED +link:leaf-2~spine-1 +ROOT CAUSE")
            .containsPattern("OPEN +PFC_STORM +port:host-60/nic1 +ROOT CAUSE")
            .containsPattern("OPEN +LINK_DOWN +link:leaf-6~spine-3 +ROOT CAUSE")
            .containsPattern("RESOLVED +PFC_STORM +port:host-60/nic1")
            .contains("Score against the injected faults", "recall 1.00, precision 1.00, localization 1.00");
        if (toolsProblem != null) {
            Assumptions.abort("the demo ran and scored; the Prometheus and kcat checks were skipped: " + toolsProblem);
        }
        assertThat(queries).as("panel queries in grafana/dashboards").hasSizeGreaterThan(10);
        assertThat(answered).as("dashboard queries that returned data from Prometheus scraping the demo")
            .containsExactlyInAnyOrderElementsOf(queries);
        assertThat(readByKcat).as("fabric.alerts as read by kcat")
            .anySatisfy(a -> {
                assertThat(a.state()).isEqualTo(Alert.State.OPEN);
                assertThat(a.rootCause()).isTrue();
                assertThat(a.id()).isEqualTo("LINK_DEGRADED:link:leaf-2~spine-1");
            });
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

    private static boolean hasData(final int promPort, final String query) {
        try {
            final HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + promPort
                + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return false;
            }
            final JsonNode result = JSON.readTree(r.body()).path("data").path("result");
            return result.isArray() && !result.isEmpty();
        } catch (IOException e) {
            return false; // not up yet
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
