package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * What /metrics exposes is a contract with dashboards and alert rules: every meter fed once, the scrape's help and
 * type lines and its series (names and labels, values dropped) must equal the pinned set, so a refactoring of the
 * meters cannot rename, retag or reword one silently.
 */
class ExposedMetersTest {

    private static final String PINNED = "/metrics/analyzer-exposition.txt";

    @Test
    void shouldExposeExactlyThePinnedNamesLabelsAndHelpTexts() throws IOException {
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, SeriesLimits.ports(1))) {
            feedEveryMeter(metrics);
        }

        assertThat(shape(registry.scrape())).isEqualTo(pinned());
    }

    private static void feedEveryMeter(final AnalyzerMetrics metrics) {
        final HandTicks ticks = HandTicks.on(HandTicks.spineLeaf(1));
        final Alert open = new Alert("PFC_STORM:port:leaf-0/eth0", FaultType.PFC_STORM, Alert.State.OPEN, Severity.CRITICAL,
            Entity.port(new PortRef("leaf-0", "eth0")), true, null, 1_000, 2_000, 5, 0, "tx_pfc_pause/s", List.of(), "s");
        metrics.intervals(3);
        metrics.rejected(RejectReason.MALFORMED);
        metrics.unmatched("unknown-device");
        metrics.alert(open, 2_500);
        metrics.jobHealth(new JobHealth("llm", 1_000, 700, 1_400, 2.0, 1e9, 5e8, 0.9, "link:leaf-0~spine-0", open.id()));
        metrics.tick(new TickReport(ticks.fabric(), ticks.tick(5).port("leaf-0", "eth0")
            .observed(CounterNames.TX_BYTES, HandTicks.LINE_BYTES_PER_S / 2).build(),
            List.of(open), 2.5, 1, Map.of("leaf-0", 90_000L)));
        metrics.refresh();
    }

    /** The scrape without its values: help, type and series lines, sorted (the registry's order is not the contract). */
    private static List<String> shape(final String scrape) {
        return scrape.lines().filter(l -> !l.isBlank())
            .map(l -> l.startsWith("#") ? l : l.substring(0, l.lastIndexOf(' ')))
            .sorted().toList();
    }

    private static List<String> pinned() throws IOException {
        try (InputStream in = ExposedMetersTest.class.getResourceAsStream(PINNED)) {
            assertThat(in).as(PINNED).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }
}
