package dev.fabrictwin.analyzer.alert;

import java.nio.file.Path;
import java.util.List;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.JobFootprint;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Placement;

/**
 * A small fabric and hand-built findings shared by the correlator and lifecycle tests.
 *
 * <p>Two spines, three leaves of two single-NIC hosts: on {@code leaf-i}, {@code eth0}/{@code eth1} face its
 * hosts and {@code eth2}/{@code eth3} face {@code spine-0}/{@code spine-1}; on {@code spine-j}, {@code eth<i>}
 * faces {@code leaf-i}. Job {@code train} crosses leaves (host-0 under leaf-0, host-2 under leaf-1); job
 * {@code serve} stays under leaf-2 (host-4, host-5).
 */
final class AlertFixtures {

    static final Scenario SCENARIO = ScenarioParser.parse(ScenarioParser.tree("""
        name: alerts
        seed: 7
        duration: 120s
        fabric: {kind: spine-leaf, spines: 2, leaves: 3, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: train, hostList: [host-0, host-2], pattern: ring-allreduce, bytesPerIteration: 2GB,
             iterationPeriod: 2s, commFraction: 0.4}
          - {id: serve, hostList: [host-4, host-5], pattern: ring-allreduce, bytesPerIteration: 1GB,
             iterationPeriod: 1s, commFraction: 0.3}
        """), Path.of("."));
    static final Fabric FABRIC = SCENARIO.fabric().build(SCENARIO.name());
    static final List<PlacedJob> JOBS = Placement.place(FABRIC, SCENARIO.jobs(), SCENARIO.seed());

    static final long EPOCH_MS = SCENARIO.epoch().toEpochMilli();
    static final long TICK_MS = 1_000;

    /** leaf-0 eth2 ↔ spine-0 eth0: under it only {@code train}. */
    static final Entity LEAF0_SPINE0 = Entity.link("spine-0", "leaf-0");
    /** leaf-2 eth2 ↔ spine-0 eth2: only {@code serve} below it, which crosses no leaf, so it slows no job. */
    static final Entity LEAF2_SPINE0 = Entity.link("leaf-2", "spine-0");
    static final Entity LEAF0_GROUP = Entity.ecmpGroup("leaf-0");
    static final Entity LEAF1_GROUP = Entity.ecmpGroup("leaf-1");
    static final Entity LEAF2_GROUP = Entity.ecmpGroup("leaf-2");

    /** The strongest fault on the leaf-0 uplink, and the imbalance it leaves on leaf-0: one fault, two findings. */
    static final Finding LINK0_DOWN = root(FaultType.LINK_DOWN, LEAF0_SPINE0);
    static final Finding LEAF0_IMBALANCE = root(FaultType.ECMP_IMBALANCE, LEAF0_GROUP);
    static final Finding LINK0_DEGRADED = root(FaultType.LINK_DEGRADED, LEAF0_SPINE0);

    private AlertFixtures() {
    }

    static JobFootprint footprint() {
        return new JobFootprint(FABRIC, JOBS);
    }

    static Correlator correlator() {
        return new Correlator(FABRIC, footprint(), DetectionCalibration.defaults().correlation());
    }

    /** A root-cause candidate whose values name its type, so records can be told apart. */
    static Finding root(final FaultType type, final Entity entity) {
        return Finding.root(type, entity, type.name().toLowerCase() + "_metric", 2.0 + type.ordinal(), 1.0,
            Severity.CRITICAL, type + " at " + entity);
    }

    /** A symptom that needs {@code cause}'s fault to explain it. */
    static Finding symptom(final FaultType type, final Entity entity, final Entity cause) {
        return Finding.symptom(type, entity, cause, "symptom_metric", 5.0, 1.0, type + " at " + entity + " from " + cause);
    }

    /** A job's comm phases slower than the twin's (the job health tracker's impact finding). */
    static Finding slowdown(final String job) {
        return Finding.symptom(FaultType.JOB_BOTTLENECK, Entity.job(job), null, "comm_ms", 900, 300,
            "job " + job + " is slow");
    }

    static String id(final Finding finding) {
        return Alert.id(finding.type(), finding.entity());
    }

    static long startOf(final long tick) {
        return EPOCH_MS + tick * TICK_MS;
    }

    static long endOf(final long tick) {
        return startOf(tick + 1);
    }
}
