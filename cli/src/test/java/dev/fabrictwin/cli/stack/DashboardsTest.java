package dev.fabrictwin.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Grafana dashboards in {@code grafana/dashboards}: Grafana cannot run here (docs/development.md), so they are checked by
 * their JSON and their queries; {@link #panelQueries(Path)} gives the queries to a test that runs them on Prometheus.
 */
public class DashboardsTest {

    /** The four dashboards the stack provisions. */
    static final List<String> TITLES = List.of("Fabric overview", "Alerts", "Jobs", "Analyzer health");

    /** The template variables panels may use; the stack substitutes Grafana's "All" ({@code .*}) for each. */
    static final Set<String> VARIABLES = Set.of("fabric", "device", "job");

    private static final Set<String> PANEL_TYPES = Set.of("timeseries", "stat", "table");

    /** {@code $name}, {@code ${name}} and {@code ${name:format}}. */
    private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{(\\w+)(?::[^}]*)?}|(\\w+))");

    /** Metric names in PromQL: ours ({@code fabric_*}) and Kafka Streams' own ({@code kafka_*}). */
    private static final Pattern METRIC = Pattern.compile("\\b(?:fabric|kafka)_[A-Za-z0-9_]+\\b");

    private static final Pattern LABEL_VALUE = Pattern.compile("\\b(metric|kind|root)=\"([^\"]*)\"");

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Every panel query ({@code targets[].expr}) of every dashboard in {@code dashboardsDir}, in file and panel
     * order, with the variables {@code $fabric}, {@code $device} and {@code $job} (also as {@code ${...}}) replaced
     * by {@code .*}, what Grafana sends when "All" is selected. Duplicates are kept.
     */
    public static List<String> panelQueries(final Path dashboardsDir) throws IOException {
        final List<String> queries = new ArrayList<>();
        for (final JsonNode dashboard : dashboards(dashboardsDir)) {
            panels(dashboard).forEach(panel -> elements(panel.path("targets"))
                .map(target -> target.path("expr").asText(""))
                .filter(expr -> !expr.isBlank())
                .map(DashboardsTest::withAllSelected)
                .forEach(queries::add));
        }
        return queries;
    }

    @Test
    void shouldProvisionTheFourDashboardsWithUniqueUidsAndTitles() throws IOException {
        final List<JsonNode> dashboards = dashboards(StackFiles.dashboardsDir());

        assertThat(dashboards).extracting(d -> d.path("title").asText()).containsExactlyInAnyOrderElementsOf(TITLES);
        assertThat(dashboards).extracting(d -> d.path("uid").asText())
            .allSatisfy(uid -> assertThat(uid).matches("[a-z0-9-]{1,40}"))
            .doesNotHaveDuplicates();
        assertThat(dashboards).allSatisfy(d -> {
            assertThat(d.path("schemaVersion").asInt()).as("schemaVersion of %s", d.path("title").asText())
                .isGreaterThanOrEqualTo(39);
            assertThat(d.path("id").isNull() || d.path("id").isMissingNode()).as("provisioned dashboards carry no id")
                .isTrue();
        });
    }

    @Test
    void everyPanelShouldQueryThePrometheusDatasource() throws IOException {
        for (final JsonNode dashboard : dashboards(StackFiles.dashboardsDir())) {
            final List<JsonNode> panels = panels(dashboard);
            assertThat(panels).as("panels of %s", dashboard.path("title").asText()).isNotEmpty();
            assertThat(panels).extracting(p -> p.path("id").asInt()).doesNotHaveDuplicates();
            for (final JsonNode panel : panels) {
                final String where = dashboard.path("title").asText() + " / " + panel.path("title").asText();
                assertThat(panel.path("type").asText()).as("type of %s", where).isIn(PANEL_TYPES);
                assertThat(panel.path("title").asText()).as("title of a panel in %s", where).isNotBlank();
                assertPrometheus(panel.path("datasource"), where);
                final List<JsonNode> targets = elements(panel.path("targets")).toList();
                assertThat(targets).as("targets of %s", where).isNotEmpty();
                assertThat(targets).extracting(t -> t.path("refId").asText()).doesNotHaveDuplicates();
                for (final JsonNode target : targets) {
                    assertThat(target.path("expr").asText("")).as("expr of %s", where).isNotBlank();
                    if (!target.path("datasource").isMissingNode()) {
                        assertPrometheus(target.path("datasource"), where);
                    }
                }
            }
        }
    }

    @Test
    void panelsShouldNotOverlap() throws IOException {
        for (final JsonNode dashboard : dashboards(StackFiles.dashboardsDir())) {
            final List<JsonNode> panels = panels(dashboard);
            for (int i = 0; i < panels.size(); i++) {
                final JsonNode a = panels.get(i).path("gridPos");
                assertThat(a.path("x").asInt() + a.path("w").asInt()).as("right edge").isLessThanOrEqualTo(24);
                for (int j = i + 1; j < panels.size(); j++) {
                    final JsonNode b = panels.get(j).path("gridPos");
                    final boolean overlap = a.path("x").asInt() < b.path("x").asInt() + b.path("w").asInt()
                        && b.path("x").asInt() < a.path("x").asInt() + a.path("w").asInt()
                        && a.path("y").asInt() < b.path("y").asInt() + b.path("h").asInt()
                        && b.path("y").asInt() < a.path("y").asInt() + a.path("h").asInt();
                    assertThat(overlap).as("%s: '%s' overlaps '%s'", dashboard.path("title").asText(),
                        panels.get(i).path("title").asText(), panels.get(j).path("title").asText()).isFalse();
                }
            }
        }
    }

    @Test
    void everyVariableAQueryUsesShouldBeDefinedOnItsDashboard() throws IOException {
        for (final JsonNode dashboard : dashboards(StackFiles.dashboardsDir())) {
            final String title = dashboard.path("title").asText();
            final List<JsonNode> variables = elements(dashboard.path("templating").path("list")).toList();
            final Set<String> defined = new HashSet<>();
            variables.forEach(v -> defined.add(v.path("name").asText()));
            final Set<String> used = new TreeSet<>();
            panels(dashboard).forEach(p -> elements(p.path("targets"))
                .forEach(t -> used.addAll(variablesIn(t.path("expr").asText("")))));
            variables.forEach(v -> used.addAll(variablesIn(v.path("query").isTextual()
                ? v.path("query").asText() : v.path("query").path("query").asText(""))));

            assertThat(used).as("variables used on %s", title).isSubsetOf(VARIABLES);
            assertThat(defined).as("variables defined on %s", title).containsAll(used).contains("fabric");
            for (final JsonNode variable : variables) {
                assertThat(variable.path("type").asText()).isEqualTo("query");
                assertPrometheus(variable.path("datasource"), title + " / $" + variable.path("name").asText());
                assertThat(variable.path("allValue").asText()).as("allValue of $%s", variable.path("name").asText())
                    .isEqualTo(".*");
            }
        }
    }

    @Test
    void everyQueryShouldSelectTheFabric() throws IOException {
        for (final JsonNode dashboard : dashboards(StackFiles.dashboardsDir())) {
            panels(dashboard).forEach(p -> elements(p.path("targets")).forEach(t -> {
                final String expr = t.path("expr").asText();
                final long selectors = METRIC.matcher(expr).results().count();
                final long fabricSelections = Pattern.compile(Pattern.quote("fabric=~\"$fabric\"")).matcher(expr)
                    .results().count();
                assertThat(fabricSelections).as("fabric selection in every selector of %s", expr).isEqualTo(selectors);
            }));
        }
    }

    @Test
    void shouldQueryOnlyMetricsTheAnalyzerDocumentsWithTheirLabelValues() throws IOException {
        final String docs = Files.readString(StackFiles.repoRoot().resolve("docs").resolve("analyzer.md"));
        final String metricsSection = docs.substring(docs.indexOf("## Metrics"));
        final List<String> queries = panelQueries(StackFiles.dashboardsDir());
        final Set<String> metrics = new TreeSet<>();
        queries.forEach(q -> METRIC.matcher(q).results().map(MatchResult::group).forEach(metrics::add));

        assertThat(metrics).contains("fabric_device_utilization_ratio", "fabric_tier_pfc_pauses_per_second",
            "fabric_alert_open", "fabric_job_slowdown_ratio", "kafka_stream_thread_process_rate");
        for (final String metric : metrics) {
            if (metric.startsWith("kafka_")) {
                assertThat(metric).as("Kafka metrics come from KafkaStreamsMetrics").startsWith("kafka_stream_");
                assertThat(metricsSection).contains("`kafka_stream_*`");
            } else {
                final String meter = metric.replaceFirst("_(count|sum|max)$", "");
                assertThat(Pattern.compile("`" + Pattern.quote(meter) + "[`{]").matcher(metricsSection).find())
                    .as("%s is in docs/analyzer.md's Metrics table", meter).isTrue();
            }
        }
        final Set<String> values = new TreeSet<>();
        queries.forEach(q -> LABEL_VALUE.matcher(q).results().forEach(m -> values.add(m.group(1) + "=" + m.group(2))));
        assertThat(values).isSubsetOf("kind=observed", "kind=expected", "root=true", "root=false");
    }

    @Test
    void panelQueriesShouldReplaceEveryVariableWithAll() throws IOException {
        final List<String> queries = panelQueries(StackFiles.dashboardsDir());
        final long targets = dashboards(StackFiles.dashboardsDir()).stream()
            .flatMap(d -> panels(d).stream())
            .mapToLong(p -> p.path("targets").size())
            .sum();

        assertThat(queries).hasSize((int) targets);
        assertThat(queries).noneMatch(q -> q.contains("$"));
        assertThat(queries).anyMatch(q -> q.contains("fabric=~\".*\""))
            .anyMatch(q -> q.contains("device=~\".*\""))
            .anyMatch(q -> q.contains("job=~\".*\""));
        assertThat(withAllSelected("x{fabric=~\"${fabric}\", device=~\"${device:regex}\", job=~\"$job\"}"))
            .isEqualTo("x{fabric=~\".*\", device=~\".*\", job=~\".*\"}");
    }

    private static void assertPrometheus(final JsonNode datasource, final String where) {
        assertThat(datasource.path("type").asText()).as("datasource type of %s", where).isEqualTo("prometheus");
        assertThat(datasource.path("uid").asText()).as("datasource uid of %s", where).isEqualTo("prometheus");
    }

    private static String withAllSelected(final String expr) {
        return VARIABLE.matcher(expr).replaceAll(m -> {
            final String name = m.group(1) != null ? m.group(1) : m.group(2);
            return Matcher.quoteReplacement(VARIABLES.contains(name) ? ".*" : m.group());
        });
    }

    private static Set<String> variablesIn(final String text) {
        final Set<String> names = new TreeSet<>();
        VARIABLE.matcher(text).results().forEach(m -> names.add(m.group(1) != null ? m.group(1) : m.group(2)));
        return names;
    }

    /** The dashboards of {@code dir}, by file name. */
    static List<JsonNode> dashboards(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".json"))
                .sorted()
                .map(DashboardsTest::read)
                .toList();
        }
    }

    /** Every panel, also those nested in rows; rows themselves are left out. */
    static List<JsonNode> panels(final JsonNode dashboard) {
        final List<JsonNode> panels = new ArrayList<>();
        elements(dashboard.path("panels")).forEach(p -> {
            if ("row".equals(p.path("type").asText())) {
                elements(p.path("panels")).forEach(panels::add);
            } else {
                panels.add(p);
            }
        });
        return panels;
    }

    private static Stream<JsonNode> elements(final JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }

    private static JsonNode read(final Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dashboard " + file, e);
        }
    }
}
