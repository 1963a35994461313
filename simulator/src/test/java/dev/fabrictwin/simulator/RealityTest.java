package dev.fabrictwin.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.simulator.reality.Reality.Hidden;
import dev.fabrictwin.simulator.reality.RealityDraw;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.telemetry.Sample;

class RealityTest {

    private static final String SMALL = SyntheticClusterTest.SMALL;

    private static Scenario scenario(final String yaml) {
        return SyntheticClusterTest.scenario(yaml);
    }

    private static List<String> run(final Scenario s, final Reality reality) {
        final List<String> out = new ArrayList<>();
        new SyntheticCluster(s, s.telemetry(), reality).run(x -> out.add(SampleJson.write(x)), done -> { });
        return out;
    }

    private static Scenario draw(final int n) {
        final Scenario s = scenario(SMALL);
        return s.withTelemetry(s.telemetry().withRealityDraw(n));
    }

    @Test
    void shouldParseTheScenarioKeyAndKeepTheFixedRealityByDefault() {
        assertThat(scenario(SMALL).telemetry().realityDraw()).isZero();
        assertThat(scenario(SMALL + "telemetry: {reality: randomized, draw: 4}\n").telemetry().realityDraw()).isEqualTo(4);
        assertThat(scenario(SMALL + "telemetry: {reality: randomized}\n").telemetry().realityDraw()).isEqualTo(1);
        assertThatThrownBy(() -> scenario(SMALL + "telemetry: {reality: wild}\n")).hasMessageContaining("fixed or randomized");
        assertThatThrownBy(() -> scenario(SMALL + "telemetry: {draw: 2}\n")).hasMessageContaining("reality: randomized");
        // the fixed reality's samples do not depend on the ranges at all
        assertThat(run(scenario(SMALL), Reality.defaults().varying(EnumSet.noneOf(Hidden.class))))
            .isEqualTo(run(scenario(SMALL), Reality.defaults()));
    }

    @Test
    void shouldDrawTheSameValuesForTheSameSeedAndDrawAndOthersForAnother() {
        assertThat(run(draw(2), Reality.defaults())).isEqualTo(run(draw(2), Reality.defaults()));
        assertThat(run(draw(2), Reality.defaults())).isNotEqualTo(run(draw(3), Reality.defaults()));
        final RealityDraw d = Reality.defaults().draw(3, 2);
        assertThat(d.kminScale()).isBetween(0.75, 1.25);
        assertThat(d.controlFrameShare()).isBetween(0.3, 0.6);
        assertThat(d.lossRate()).isBetween(0.0, 0.01);
        final RealityDraw.Device leaf = d.device("leaf-0");
        assertThat(leaf).isEqualTo(Reality.defaults().draw(3, 2).device("leaf-0"));
        assertThat(leaf.clockOffsetMs()).isBetween(-50.0, 50.0);
        assertThat(leaf.driftPpm()).isBetween(-20.0, 20.0);
        assertThat(leaf.readSpreadMs()).isBetween(1.0, 5.0);
    }

    @Test
    void shouldCountControlFramesOnSomeSwitchPortsOnlyNeverOnNics() {
        // control frames alone, and a share of 1: every switch port counts them, so every leaf port facing a NIC
        // transmits more packets than its NIC receives (LLDP every 30 s), and receives more than the NIC sends
        final Reality all = new Reality(Reality.Range.pm(0), Reality.Range.pm(0), Reality.Range.pm(0), new Reality.Range(0, 0),
            new Reality.Range(0, 0), new Reality.Range(1, 1), new Reality.Range(64, 64), 30, 64, new Reality.Range(0, 0),
            new Reality.Range(1, 1), new Reality.Range(1, 1), new Reality.Range(0, 0), new Reality.Range(0, 0),
            EnumSet.of(Hidden.CONTROL_FRAMES), new Reality.Range(0, 0), new Reality.Range(0, 0), 1);
        final Scenario s = draw(1).withTelemetry(TelemetryProfile.ideal().withRealityDraw(1));
        final Map<String, Sample> last = new HashMap<>();
        new SyntheticCluster(s, s.telemetry(), all).run(x -> last.put(x.device() + "/" + x.port(), x), done -> { });
        final Map<String, Sample> ideal = new HashMap<>();
        new SyntheticCluster(s, TelemetryProfile.ideal()).run(x -> ideal.put(x.device() + "/" + x.port(), x), done -> { });
        // leaf-0 eth0 faces host-0 nic0
        final long extraTx = last.get("leaf-0/eth0").counters().get(CounterNames.TX_PACKETS)
            - ideal.get("leaf-0/eth0").counters().get(CounterNames.TX_PACKETS);
        assertThat(extraTx).as("LLDP frames in 60 s, plus CNPs").isGreaterThanOrEqualTo(2);
        assertThat(last.get("host-0/nic0").counters()).as("a NIC never counts them").isEqualTo(ideal.get("host-0/nic0").counters());
        final Map<String, Long> nicTx = last.entrySet().stream().filter(e -> e.getKey().startsWith("host-"))
            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().counters().get(CounterNames.TX_PACKETS)));
        assertThat(nicTx).isNotEmpty();
    }
}
