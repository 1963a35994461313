package dev.fabrictwin.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The whole {@code docker-compose.yml} stack, built from this checkout: Grafana serves the four provisioned
 * dashboards and Prometheus scrapes both analyzer replicas. Skipped, with the reason, where no Docker engine (or no
 * {@code docker compose}) runs; {@link ComposeFileTest} and {@link DashboardsTest} check the same files without it.
 */
@Testcontainers(disabledWithoutDocker = true)
@EnabledIf(value = "dev.fabrictwin.cli.stack.StackFiles#dockerComposeInstalled",
    disabledReason = "`docker compose` (Compose v2) is not installed: the compose stack test is skipped")
class ComposeStackTest {

    /** Building the image runs the Maven build inside Docker: minutes on a cold cache. */
    private static final Duration STARTUP = Duration.ofMinutes(20);

    private static final String DASHBOARDS = "/api/search?type=dash-db";

    /** Instances scraped: the analyzer's two replicas, once each has registered its meters. */
    private static final String INSTANCES = "count by (fabric) (fabric_samples_processed_total)";

    @Container
    static final ComposeContainer STACK = new ComposeContainer(StackFiles.composeFile().toFile())
        .withBuild(true)
        .withRemoveVolumes(true)
        .withStartupTimeout(STARTUP)
        // Grafana's provisioning has loaded every dashboard
        .withExposedService("grafana", 3000, Wait.forHttp(DASHBOARDS)
            .forStatusCode(200)
            .forResponsePredicate(body -> DashboardsTest.TITLES.stream().allMatch(t -> body.contains("\"" + t + "\"")))
            .withStartupTimeout(STARTUP))
        // Prometheus has found both analyzer replicas through DNS and scraped them
        .withExposedService("prometheus", 9090, Wait.forHttp("/api/v1/query?query="
                + URLEncoder.encode(INSTANCES, StandardCharsets.UTF_8))
            .forStatusCode(200)
            .forResponsePredicate(body -> body.contains("\"fabric\":\"demo\"") && body.contains(",\"2\"]"))
            .withStartupTimeout(STARTUP));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void grafanaShouldListTheFourProvisionedDashboards() throws IOException, InterruptedException {
        final JsonNode found = get("grafana", 3000, DASHBOARDS);
        final List<String> titles = StreamSupport.stream(found.spliterator(), false)
            .map(d -> d.path("title").asText())
            .toList();
        final List<String> uids = StreamSupport.stream(found.spliterator(), false)
            .map(d -> d.path("uid").asText())
            .toList();

        assertThat(titles).containsExactlyInAnyOrderElementsOf(DashboardsTest.TITLES);
        assertThat(uids).containsExactlyInAnyOrder("fabric-overview", "fabric-alerts", "fabric-jobs",
            "fabric-analyzer-health");
    }

    @Test
    void prometheusShouldScrapeBothAnalyzerReplicasAsTheDemoFabric() throws IOException, InterruptedException {
        final JsonNode result = get("prometheus", 9090,
            "/api/v1/query?query=" + URLEncoder.encode(INSTANCES, StandardCharsets.UTF_8)).path("data").path("result");

        assertThat(result).hasSize(1);
        assertThat(result.path(0).path("metric").path("fabric").asText()).isEqualTo("demo");
        assertThat(result.path(0).path("value").path(1).asText()).isEqualTo("2");
    }

    private JsonNode get(final String service, final int port, final String pathAndQuery)
        throws IOException, InterruptedException {
        final URI uri = URI.create("http://" + STACK.getServiceHost(service, port) + ":"
            + STACK.getServicePort(service, port) + pathAndQuery);
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", uri).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
