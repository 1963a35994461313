package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.IterationRecord;

/** {@code whatif --fault} against {@code simulate} of the same fault, and {@code whatif --topology --jobs}. */
class WhatIfFaultCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Three jobs on 20 hosts of five leaves, 100G uplinks, sharing no link (so how their comm phases drift against
     * each other in the simulator cannot move their comm times): a shift across leaves 0-1 whose every flow crosses the
     * spines, an all-to-all across leaves 2-3, and a ring inside leaf 4, which no spine concerns.
     */
    static final String THREE_JOBS = """
        name: three-jobs
        seed: 3
        duration: 24s
        sampleInterval: 1s
        fabric: {kind: spine-leaf, spines: 4, leaves: 5, hostsPerLeaf: 4, nicsPerHost: 1,
                 linkSpeed: 100G, hostLinkSpeed: 400G}
        jobs:
          - {id: shift-a, hosts: 8, pattern: shift, offset: 4, bytesPerIteration: 2GB, iterationPeriod: 1s, commFraction: 0.3}
          - {id: a2a-b, hosts: 8, pattern: all-to-all, bytesPerIteration: 8GB, iterationPeriod: 1s, commFraction: 0.3}
          - {id: ring-c, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 4GB, iterationPeriod: 1s, commFraction: 0.3}
        """;

    @Test
    void shouldPredictADrainedSpinesSlowdownsWithinFivePercentOfTheSimulatedOnes(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("three-jobs.yaml");
        Files.writeString(file, THREE_JOBS);

        final FabricTwinCliTest.Run whatif = run("whatif", "--scenario", file.toString(), "--fault", "drain:spine-1", "--json");

        assertThat(whatif.exitCode()).as(whatif.err()).isZero();
        final String[] lines = whatif.out().split("\\R");
        assertThat(lines[0]).isEqualTo("what-if: drain:spine-1, against the same fabric healthy");
        final JsonNode doc = JSON.readTree(lines[lines.length - 1]);
        final Map<String, Double> predicted = new HashMap<>();
        doc.get("rows").forEach(r -> predicted.put(r.get("job").asText(), r.get("slowdown").asDouble()));
        assertThat(predicted).containsOnlyKeys("shift-a", "a2a-b", "ring-c");

        final Map<String, Double> healthy = simulatedStepSeconds(ScenarioParser.parse(file));
        final Map<String, Double> drained = simulatedStepSeconds(ScenarioParser.parse(
            Files.writeString(dir.resolve("drained.yaml"), THREE_JOBS
                + "faults: [{type: LINK_DOWN, target: {device: spine-1}}]\n")));
        for (final String job : predicted.keySet()) {
            final double simulated = drained.get(job) / healthy.get(job);
            assertThat(predicted.get(job)).as(job + " (simulated x%.3f)", simulated).isCloseTo(simulated, within(0.05 * simulated));
        }
        // a drained spine slows the jobs whose traffic crosses the spines, and only them
        assertThat(predicted.get("a2a-b")).isGreaterThan(1.05);
        assertThat(predicted.get("ring-c")).isCloseTo(1.0, within(1e-9));
        assertThat(doc.get("hurt")).extracting(JsonNode::asText).contains("a2a-b").doesNotContain("ring-c");
        assertThat(whatif.out()).contains("drain:spine-1 hurts");
        doc.get("rows").forEach(r -> {
            if (r.get("hurt").asBoolean()) {
                assertThat(r.get("binding")).as(r.get("job").asText()).isNotEmpty();
                r.get("binding").forEach(l -> assertThat(l.asText()).doesNotContain("spine-1"));
            }
        });
    }

    /**
     * Mean step time (s) per job over a simulate run's iterations, the first dropped as whatif drops it (the simulator
     * keeps the last 10 s of them).
     */
    private static Map<String, Double> simulatedStepSeconds(final Scenario scenario) {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        cluster.run(s -> { }, n -> { });
        final Map<String, Double> steps = new HashMap<>();
        for (final var j : scenario.jobs()) {
            final List<IterationRecord> its = cluster.twin().simulation().iterations().stream()
                .filter(r -> r.job().equals(j.id()) && r.iteration() > 0).toList();
            assertThat(its).as(j.id()).hasSizeGreaterThanOrEqualTo(5);
            steps.put(j.id(), its.stream().mapToDouble(IterationRecord::stepSeconds).average().orElseThrow());
        }
        return steps;
    }

    @Test
    void shouldSlowARingToItsDegradedLinkAndStallTheJobOfADeadLeaf(@TempDir final Path dir) throws Exception {
        final Path file = Files.writeString(dir.resolve("three-jobs.yaml"), THREE_JOBS);

        final FabricTwinCliTest.Run degraded = run("whatif", "--scenario", file.toString(), "--fault",
            "degrade:host-16~leaf-4=100G", "--json");

        assertThat(degraded.exitCode()).as(degraded.err()).isZero();
        final Map<String, JsonNode> rows = rows(degraded);
        // the ring runs at its slowest link's pace: a quarter of 400G, four times the comm time
        final JsonNode ring = rows.get("ring-c");
        assertThat(ring.get("commTimeMs").asDouble() / ring.get("healthyCommTimeMs").asDouble()).isCloseTo(4.0, within(1e-3));
        assertThat(ring.get("binding")).extracting(JsonNode::asText).containsAnyOf("host-16→leaf-4", "leaf-4→host-16");
        assertThat(rows.get("a2a-b").get("slowdown").asDouble()).isEqualTo(1.0);

        final FabricTwinCliTest.Run dead = run("whatif", "--scenario", file.toString(), "--fault", "down:leaf-4", "--json");

        assertThat(dead.exitCode()).as(dead.err()).isZero();
        assertThat(rows(dead).get("ring-c").get("stalled").asBoolean()).isTrue();
        assertThat(rows(dead).get("ring-c").get("slowdown").isNull()).isTrue();
        assertThat(rows(dead).get("shift-a").get("slowdown").asDouble()).isEqualTo(1.0);
        assertThat(dead.out()).contains("down:leaf-4 hurts 1 of 3 jobs: ring-c stalled");
    }

    private static Map<String, JsonNode> rows(final FabricTwinCliTest.Run run) throws Exception {
        final String[] lines = run.out().split("\\R");
        final Map<String, JsonNode> rows = new HashMap<>();
        JSON.readTree(lines[lines.length - 1]).get("rows").forEach(r -> rows.put(r.get("job").asText(), r));
        return rows;
    }

    @Test
    void shouldGiveTheSameRowsFromTheFabricsDocumentsAsFromItsScenario(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("three-jobs.yaml");
        Files.writeString(file, THREE_JOBS.replace("seed: 3\n", ""));
        final Path out = dir.resolve("sim");
        assertThat(run("simulate", "--scenario", file.toString(), "--out", out.toString()).exitCode()).isZero();

        for (final String[] extra : new String[][] {{}, {"--fault", "drain:spine-2", "--fault", "degrade:leaf-0~spine-0=50G"}}) {
            final FabricTwinCliTest.Run fromScenario = run(concat(new String[] {"whatif", "--scenario", file.toString(),
                "--json"}, extra));
            final FabricTwinCliTest.Run fromDocuments = run(concat(new String[] {"whatif", "--topology",
                out.resolve("topology.json").toString(), "--jobs", out.resolve("jobs.json").toString(), "--json"}, extra));

            assertThat(fromScenario.exitCode()).as(fromScenario.err()).isZero();
            assertThat(fromDocuments.exitCode()).as(fromDocuments.err()).isZero();
            assertThat(fromDocuments.out()).isEqualTo(fromScenario.out());
            assertThat(fromScenario.out()).contains("shift-a", "a2a-b", "ring-c");
        }
    }

    @Test
    void shouldRefuseABadFaultInOneLineNamingTheBadPart(@TempDir final Path dir) throws Exception {
        final Path file = Files.writeString(dir.resolve("three-jobs.yaml"), THREE_JOBS);
        for (final String[] bad : new String[][] {
            {"spine-1", "expected ACTION:TARGET"},
            {"reboot:spine-1", "unknown action 'reboot'"},
            {"drain:leaf-0~spine-1", "drain takes a device"},
            {"degrade:leaf-0~spine-1", "degrade needs the capacity left"},
            {"degrade:leaf-0~spine-1=fast", "capacity 'fast' is neither a rate"},
            {"degrade:leaf-0~spine-1=150%", "capacity '150%' must be above 0% and below 100%"},
            {"degrade:leaf-0~spine-1=400G", "400G is not below the link's 100G"},
            {"down:spine-9", "no device 'spine-9' in the fabric"},
            {"down:leaf-0~leaf-1", "leaf-0 and leaf-1 are not linked"},
            {"down:leaf-0=1G", "'=1G': only degrade takes a capacity"},
        }) {
            final FabricTwinCliTest.Run run = run("whatif", "--scenario", file.toString(), "--fault", bad[0]);
            assertThat(run.exitCode()).as(bad[0]).isEqualTo(2);
            assertThat(run.errLines()).as(bad[0]).singleElement().asString().contains("--fault '" + bad[0] + "': " + bad[1]);
        }
        final FabricTwinCliTest.Run noJobs = run("whatif", "--topology", "topology.json");
        assertThat(noJobs.exitCode()).isEqualTo(2);
        assertThat(noJobs.errLines()).singleElement().asString().contains("--topology needs --jobs FILE");
    }

    private static String[] concat(final String[] a, final String[] b) {
        final String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
