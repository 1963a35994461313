package dev.fabrictwin.twin.scenario;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.twin.TwinFixtures;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.workload.FlowSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PinSpec;

class ScenarioParserTest {

    @Test
    void shouldReadTheDesignsExampleScenario() {
        final Scenario s = ScenarioParser.parse(TwinFixtures.shipped("pfc-storm-small.yaml"));

        assertThat(s.name()).isEqualTo("pfc-storm-small");
        assertThat(s.seed()).isEqualTo(7);
        assertThat(s.duration()).isEqualTo(Duration.ofSeconds(300));
        assertThat(s.epoch()).isEqualTo(Scenario.DEFAULT_EPOCH);
        assertThat(s.fabric()).isInstanceOf(SpineLeaf.class);
        assertThat(((SpineLeaf) s.fabric()).hostLinkSpeedBps()).isEqualTo(400e9);
        assertThat(s.jobs()).singleElement().satisfies(j -> {
            assertThat(j.pattern()).isEqualTo(Pattern.RING_ALLREDUCE);
            assertThat(j.bytesPerIteration()).isEqualTo(8_000_000_000L);
            assertThat(j.computeSeconds()).isEqualTo(1.3, Assertions.within(1e-12));
        });
        assertThat(s.faults()).hasSize(2);
        assertThat(s.faults().get(0).target()).isEqualTo(FaultTarget.port("host-5", "nic0"));
        assertThat(s.faults().get(1).type()).isEqualTo(FaultType.LINK_DEGRADED);
        assertThat(s.faults().get(1).target()).isEqualTo(FaultTarget.link("leaf-2", "spine-1"));
        assertThat(s.faults().get(1).param("capacity")).isEqualTo(0.5);
        assertThat(s.faults().get(1).param("fecErrorRate")).isEqualTo(1e-6); // default
        assertThat(s.epochMillis(s.faults().get(0).start())).isEqualTo(1735689600000L + 120_000);
    }

    @Test
    void shouldNameTheFieldThatIsWrong() {
        assertThatThrownBy(() -> scenario("""
            name: x
            fabric: {kind: spine-leaf}
            jobs: [{id: a, hosts: 2, pattern: ring-allreduse}]
            """)).hasMessageStartingWith("jobs[0]: unknown pattern 'ring-allreduse'");
        assertThatThrownBy(() -> scenario("""
            name: x
            fabric: {kind: spine-leaf, spine: 4}
            """)).hasMessageStartingWith("fabric.spine: unknown key");
        assertThatThrownBy(() -> scenario("""
            name: x
            fabric: {kind: torus}
            """)).hasMessageContaining("unknown fabric kind 'torus'");
        assertThatThrownBy(() -> scenario("""
            fabric: {kind: spine-leaf}
            faults: [{type: LINK_DOWN, target: {device: leaf-0, peer: spine-0}, start: 10s, end: 5s}]
            """)).hasMessageContaining("end (PT5S) must be after start (PT10S)");
        assertThatThrownBy(() -> scenario("""
            fabric: {kind: spine-leaf}
            faults: [{type: LINK_DOWN, target: {device: leaf-0, peer: spine-0}, capacity: 0.5}]
            """)).hasMessageContaining("unknown parameter 'capacity'");
        assertThatThrownBy(() -> scenario("""
            fabric: {kind: spine-leaf}
            faults: [{type: LINK_FLAP, target: {device: leaf-0, peer: spine-0}, period: 1, downSeconds: 2}]
            """)).hasMessageContaining("downSeconds must be > 0 and under period (1.0), was 2.0");
        assertThatThrownBy(() -> scenario("duration: soon\nfabric: {kind: spine-leaf}"))
            .hasMessageStartingWith("duration: invalid duration 'soon'");
    }

    @Test
    void shouldLoadAFabricFileRelativeToTheScenario(@TempDir final Path dir)
            throws Exception {
        Files.writeString(dir.resolve("lab.yaml"), """
            id: lab
            technology: infiniband
            nodes: [{name: host-0, tier: host}, {name: host-1, tier: host}, {name: leaf-0, tier: leaf}]
            links:
              - {lower: host-0/nic0, upper: leaf-0/eth0, speed: 200G}
              - {lower: host-1/nic0, upper: leaf-0/eth1, speed: 200G}
            """);
        Files.writeString(dir.resolve("s.yaml"), """
            name: lab-run
            fabric: {file: lab.yaml}
            jobs: [{id: j, hosts: 2, pattern: ring-allreduce, bytesPerIteration: 1GB}]
            """);

        final Scenario s = ScenarioParser.parse(dir.resolve("s.yaml"));
        final var fabric = s.fabric().build(s.name());
        assertThat(fabric.id()).isEqualTo("lab");
        assertThat(fabric.technology()).isEqualTo(Technology.INFINIBAND);
        assertThat(fabric.hosts()).hasSize(2);
        assertThat(fabric.links()).allSatisfy(l -> assertThat(l.capacityBps()).isEqualTo(200e9));
    }

    @Test
    void shouldReadEveryShippedScenario() throws Exception {
        try (var files = Files.list(TwinFixtures.shipped(""))) {
            files.filter(p -> p.toString().endsWith(".yaml")).forEach(p ->
                assertThat(ScenarioParser.parse(p).name()).as(p.toString()).isNotBlank());
        }
    }

    @Test
    void shouldIgnoreCommFractionOnABackgroundJobAndRefuseItOutOfRangeOnABulkSynchronousOne() {
        final String scenario = """
            name: background
            duration: 2h
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: bg, hosts: 4, pattern: %s, bytesPerIteration: 1GB, iterationPeriod: 1s, commFraction: 1.0}
            """;

        assertThat(ScenarioParser.parse(ScenarioParser.tree(scenario.formatted("background")), null).jobs())
            .singleElement().satisfies(j -> assertThat(j.commFraction()).isZero());
        Assertions.assertThatThrownBy(() ->
                ScenarioParser.parse(ScenarioParser.tree(scenario.formatted("ring-allreduce")), null))
            .hasMessageContaining("commFraction must be in [0, 1), was 1.0");
    }

    @Test
    void shouldRefuseAFabricTooLargeOrADurationTooLongBeforeBuildingAnything() {
        final String scenario = """
            name: typo
            duration: %s
            fabric: {kind: spine-leaf, spines: %d, leaves: 64, hostsPerLeaf: 4}
            jobs: []
            """;

        Assertions.assertThatThrownBy(() ->
                ScenarioParser.parse(ScenarioParser.tree(scenario.formatted("300s", 100_000)), null))
            .hasMessage("fabric: fabric too large: 6,400,256 links (at most 1,000,000, about a 400k-GPU fabric)");
        Assertions.assertThatThrownBy(() ->
                ScenarioParser.parse(ScenarioParser.tree(scenario.formatted("100000000h", 4)), null))
            .hasMessageStartingWith("duration: 100000000h is 360,000,000,000 sampling rounds of 1s");
        assertThat(ScenarioParser.parse(ScenarioParser.tree(scenario.formatted("24h", 4)), null).fabric().linkCount())
            .isEqualTo(64 * 4 + 64 * 4);
    }

    @Test
    void readsExplicitFlowsPinsAndAShiftsOffset() {
        final Scenario s = scenario("""
            name: x
            fabric: {kind: spine-leaf}
            jobs: [{id: ringx, hosts: 8, pattern: shift, offset: 4}]
            flows:
              - {src: host-3/nic0, dst: host-7, bytes: 64MiB, start: 2s}
              - {id: ckpt, src: host-1, dst: host-5, bytes: 1GB, repeat: 30s, via: spine-2}
            pins:
              - {src: host-0/nic0, dst: host-4/nic0, via: spine-3}
            """);
        assertThat(s.jobs().get(0).offset()).isEqualTo(4);
        assertThat(s.flows()).containsExactly(
            new FlowSpec("flow-0", "host-3/nic0", "host-7", 64L << 20, Duration.ofSeconds(2), Duration.ZERO, null),
            new FlowSpec("ckpt", "host-1", "host-5", 1_000_000_000L, Duration.ZERO, Duration.ofSeconds(30), "spine-2"));
        assertThat(s.pins()).containsExactly(new PinSpec("host-0/nic0", "host-4/nic0", "spine-3"));
    }

    @Test
    void aBadFlowIsAOneLineErrorNamingTheFlowAndTheKey() {
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{id: f, src: host-0, dst: host-1, bytes: 0}]"))
            .isInstanceOf(ScenarioException.class).hasMessage("flows[0] (f): bytes must be > 0, was 0");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{src: host-0, dst: host-1, bytes: lots}]"))
            .hasMessageStartingWith("flows[0] (flow-0).bytes: ").hasMessageContaining("lots");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{src: host-0, bytes: 1MB}]"))
            .hasMessage("flows[0] (flow-0).dst: required");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{src: host-0, dst: [host-1], bytes: 1MB}]"))
            .hasMessage("flows[0] (flow-0).dst: expected a value, was '[\"host-1\"]'");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{src: host-0, dst: host-1, size: 1MB}]"))
            .hasMessageStartingWith("flows[0].size: unknown key");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\nflows: [{src: host-0, dst: host-1, bytes: 1, repeat: 0s}]"))
            .hasMessage("flows[0] (flow-0).repeat: must be > 0, was '0s'");
        assertThatThrownBy(() -> scenario("duration: 60s\nfabric: {kind: spine-leaf}\nflows: [{src: host-0, dst: host-1, bytes: 1, start: 2m}]"))
            .hasMessage("flows[0] (flow-0).start: 2m is not before the scenario's end (60s)");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\npins: {src: host-0}"))
            .hasMessage("pins: expected a list");
        assertThatThrownBy(() -> scenario("fabric: {kind: spine-leaf}\njobs: [{id: r, hosts: 2, offset: 2}]"))
            .hasMessage("jobs[0]: job r: offset 2 applies to pattern shift only, not ring-allreduce");
    }
}
