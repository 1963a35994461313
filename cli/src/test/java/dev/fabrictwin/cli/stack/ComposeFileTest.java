package dev.fabrictwin.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;

/**
 * {@code docker-compose.yml}, {@code Dockerfile}, {@code prometheus/prometheus.yml} and Grafana's provisioning, read
 * as files: the stack is consistent with itself and with the repository without needing Docker.
 */
class ComposeFileTest {

    private static final YAMLMapper YAML = new YAMLMapper();

    /** Internal listener every service in the stack bootstraps from. */
    private static final String BOOTSTRAP = "kafka:19092";

    private static Path root;
    private static JsonNode services;

    @BeforeAll
    static void readComposeFile() throws IOException {
        root = StackFiles.repoRoot();
        services = YAML.readTree(StackFiles.composeFile().toFile()).path("services");
    }

    @Test
    void shouldDefineTheSixServices() {
        assertThat(fieldNames(services))
            .containsExactlyInAnyOrder("kafka", "topic-init", "generator", "analyzer", "prometheus", "grafana");
    }

    @Test
    void shouldRunPinnedOfficialImagesForKafkaPrometheusAndGrafana() {
        assertThat(image("kafka")).startsWith("apache/kafka:");
        assertThat(image("topic-init")).isEqualTo(image("kafka"));
        assertThat(image("prometheus")).startsWith("prom/prometheus:");
        assertThat(image("grafana")).startsWith("grafana/grafana:");
        assertThat(List.of(image("kafka"), image("prometheus"), image("grafana")))
            .allSatisfy(image -> assertThat(image).doesNotEndWith(":latest"));
    }

    @Test
    void shouldBuildTheAppServicesFromTheRepositoryDockerfile() {
        for (final String name : List.of("generator", "analyzer")) {
            final JsonNode build = services.path(name).path("build");
            final String context = build.isTextual() ? build.asText() : build.path("context").asText(".");
            final String dockerfile = build.path("dockerfile").asText("Dockerfile");

            assertThat(root.resolve(context).normalize()).as("build context of %s", name).isEqualTo(root.normalize());
            assertThat(root.resolve(context).resolve(dockerfile).normalize()).as("Dockerfile of %s", name)
                .isEqualTo(root.resolve("Dockerfile").normalize())
                .isRegularFile();
        }
        assertThat(image("generator")).as("one image for both app services").isEqualTo(image("analyzer"));
    }

    @Test
    void dockerfileShouldBuildTheLauncherJarAndShipTheScenarios() throws IOException {
        final String dockerfile = Files.readString(root.resolve("Dockerfile"));

        assertThat(dockerfile).contains("FROM eclipse-temurin:17-jdk AS build", "FROM eclipse-temurin:17-jre",
            "./mvnw -B -ntp -DskipTests -pl cli -am package", "/src/cli/target/fabric-twin.jar /app/fabric-twin.jar",
            "COPY scenarios/ /app/scenarios/", "ENTRYPOINT [\"java\", \"-jar\", \"/app/fabric-twin.jar\"]");
        assertThat(Files.readAllLines(root.resolve(".dockerignore"))).contains(".git", "**/target", "out/");
        assertThat(command("generator")).containsSequence("--scenario", "scenarios/pfc-storm-small.yaml");
        assertThat(command("generator")).as("live telemetry is stamped with wall-clock times").containsSequence("--epoch", "now");
        assertThat(root.resolve("scenarios").resolve("pfc-storm-small.yaml")).isRegularFile();
    }

    @Test
    void everyLongRunningServiceShouldHaveAHealthcheck() {
        final Set<String> longRunning = new TreeSet<>();
        fieldNames(services).forEach(name -> {
            if (!"no".equals(services.path(name).path("restart").asText())) {
                longRunning.add(name);
            }
        });

        assertThat(longRunning).containsExactlyInAnyOrder("kafka", "analyzer", "prometheus", "grafana");
        assertThat(longRunning).allSatisfy(name -> assertThat(services.path(name).path("healthcheck").path("test"))
            .as("healthcheck of %s", name).isNotEmpty());
    }

    @Test
    void shouldRunTwoAnalyzerReplicasWithoutAFixedHostPort() {
        final JsonNode analyzer = services.path("analyzer");

        assertThat(analyzer.path("deploy").path("replicas").asInt()).isEqualTo(2);
        assertThat(analyzer.path("ports").isMissingNode()).as("two replicas cannot publish one host port").isTrue();
        assertThat(command("analyzer")).containsSequence("--metrics-host", "0.0.0.0")
            .containsSequence("--metrics-port", "9404")
            .containsSequence("--standby-replicas", "1");
    }

    @Test
    void shouldPublishGrafanaPrometheusAndKafkaOnTheHost() {
        final Map<Integer, String> published = new HashMap<>();
        fieldNames(services).forEach(name -> elements(services.path(name).path("ports")).forEach(port -> {
            final String hostPort = port.isTextual() ? port.asText().replaceFirst("^(?:.*:)?(\\d+):\\d+(?:/\\w+)?$", "$1")
                : port.path("published").asText();
            published.put(Integer.parseInt(hostPort), name);
        }));

        assertThat(published).containsEntry(3000, "grafana").containsEntry(9090, "prometheus").containsEntry(9092, "kafka");
    }

    @Test
    void shouldMountConfigurationThatExistsInTheRepository() {
        final Map<String, String> mounts = new HashMap<>();
        fieldNames(services).forEach(name -> elements(services.path(name).path("volumes")).forEach(volume -> {
            final String[] parts = volume.asText().split(":");
            assertThat(parts[0]).as("bind mount of %s", name).startsWith("./");
            assertThat(root.resolve(parts[0])).as("mounted into %s", name).exists();
            mounts.put(parts[1], root.relativize(root.resolve(parts[0]).normalize()).toString().replace('\\', '/'));
        }));

        assertThat(mounts).containsEntry("/etc/grafana/provisioning", "grafana/provisioning")
            .containsEntry("/var/lib/grafana/dashboards", "grafana/dashboards")
            .containsEntry("/etc/prometheus/prometheus.yml", "prometheus/prometheus.yml");
        assertThat(root.resolve("grafana/provisioning/datasources/prometheus.yml")).isRegularFile();
        assertThat(root.resolve("grafana/provisioning/dashboards/dashboards.yml")).isRegularFile();
    }

    @Test
    void grafanaShouldBeProvisionedWithThePrometheusOfTheStackAndTheMountedDashboards() throws IOException {
        final JsonNode datasource = YAML.readTree(root.resolve("grafana/provisioning/datasources/prometheus.yml").toFile())
            .path("datasources").path(0);
        final JsonNode provider = YAML.readTree(root.resolve("grafana/provisioning/dashboards/dashboards.yml").toFile())
            .path("providers").path(0);

        assertThat(datasource.path("name").asText()).isEqualTo("Prometheus");
        assertThat(datasource.path("uid").asText()).isEqualTo("prometheus");
        assertThat(datasource.path("type").asText()).isEqualTo("prometheus");
        assertThat(datasource.path("url").asText()).isEqualTo("http://prometheus:9090");
        assertThat(datasource.path("isDefault").asBoolean()).isTrue();
        assertThat(provider.path("type").asText()).isEqualTo("file");
        assertThat(provider.path("options").path("path").asText()).isEqualTo("/var/lib/grafana/dashboards");
        assertThat(services.path("grafana").path("environment").path("GF_AUTH_ANONYMOUS_ENABLED").asText()).isEqualTo("true");
    }

    @Test
    void prometheusShouldScrapeEveryAnalyzerReplicaWithTheFabricLabelAndTheJobTagKept() throws IOException {
        final JsonNode scrape = YAML.readTree(root.resolve("prometheus/prometheus.yml").toFile())
            .path("scrape_configs").path(0);
        final JsonNode dns = scrape.path("dns_sd_configs").path(0);

        assertThat(scrape.path("honor_labels").asBoolean()).as("keeps fabric_job_*'s job tag as job").isTrue();
        assertThat(scrape.path("scrape_interval").asText()).isEqualTo("5s");
        assertThat(elements(dns.path("names")).map(JsonNode::asText)).containsExactly("analyzer");
        assertThat(dns.path("type").asText()).isEqualTo("A");
        assertThat(dns.path("port").asInt()).isEqualTo(9404);
        assertThat(elements(scrape.path("relabel_configs")).map(r -> r.path("target_label").asText())).contains("fabric");
    }

    @Test
    void everyServiceShouldReachKafkaOnTheInternalListener() {
        final String advertised = services.path("kafka").path("environment").path("KAFKA_ADVERTISED_LISTENERS").asText();

        assertThat(advertised.split(",")).containsExactlyInAnyOrder("PLAINTEXT://" + BOOTSTRAP, "EXTERNAL://localhost:9092");
        assertThat(command("generator")).containsSequence("--bootstrap", BOOTSTRAP);
        assertThat(command("analyzer")).containsSequence("--bootstrap", BOOTSTRAP);
        assertThat(String.join("\n", command("topic-init"))).contains("--bootstrap-server " + BOOTSTRAP)
            .doesNotContain("kafka:9092", "localhost:9092");
    }

    @Test
    void shouldStartInDependencyOrder() {
        assertThat(condition("topic-init", "kafka")).isEqualTo("service_healthy");
        assertThat(condition("generator", "topic-init")).isEqualTo("service_completed_successfully");
        assertThat(condition("analyzer", "topic-init")).isEqualTo("service_completed_successfully");
        assertThat(condition("grafana", "prometheus")).isEqualTo("service_healthy");
        assertThat(services.path("topic-init").path("restart").asText()).isEqualTo("no");
    }

    @Test
    void topicInitShouldCreateEveryTopicOfTheDesignWithItsLayout() {
        final List<String> lines = String.join("\n", command("topic-init")).lines().toList();
        for (final TopicSpec<?, ?> topic : Topics.DEFAULT.all()) {
            final List<String> creating = lines.stream()
                .filter(l -> l.contains("--create") && l.contains("--topic " + topic.name() + " ")).toList();
            assertThat(creating).as("line creating %s", topic).hasSize(1);
            assertThat(creating.get(0)).contains("--partitions " + topic.partitions(), "--if-not-exists", "--replication-factor 1");
            assertThat(creating.get(0).contains("cleanup.policy=compact")).as("%s compacted", topic)
                .isEqualTo(topic.cleanup() == TopicSpec.Cleanup.COMPACT);
        }
    }

    private static String image(final String service) {
        return services.path(service).path("image").asText();
    }

    private static String condition(final String service, final String dependency) {
        return services.path(service).path("depends_on").path(dependency).path("condition").asText();
    }

    /** A service's command as a list (the exec form; a string command is one element). */
    private static List<String> command(final String service) {
        final JsonNode command = services.path(service).path("command");
        final List<String> parts = new ArrayList<>();
        if (command.isTextual()) {
            parts.add(command.asText());
        } else {
            elements(command).map(JsonNode::asText).forEach(parts::add);
        }
        return parts;
    }

    private static List<String> fieldNames(final JsonNode node) {
        final List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Stream<JsonNode> elements(final JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }
}
