package dev.fabrictwin.analyzer.alert;

import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF0_IMBALANCE;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF0_SPINE0;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF1_GROUP;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF2_GROUP;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF2_SPINE0;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LINK0_DEGRADED;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LINK0_DOWN;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.id;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.root;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.slowdown;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.symptom;
import static dev.fabrictwin.twin.fault.FaultType.ECMP_IMBALANCE;
import static dev.fabrictwin.twin.fault.FaultType.ECN_MISCONFIG;
import static dev.fabrictwin.twin.fault.FaultType.JOB_BOTTLENECK;
import static dev.fabrictwin.twin.fault.FaultType.LATENCY_SLO;
import static dev.fabrictwin.twin.fault.FaultType.LINK_DEGRADED;
import static dev.fabrictwin.twin.fault.FaultType.LINK_DOWN;
import static dev.fabrictwin.twin.fault.FaultType.PFC_STORM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.assertj.core.api.AbstractListAssert;
import org.assertj.core.api.ObjectAssert;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;

class CorrelatorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** The documented precedence (docs/analyzer.md), strongest first. */
    private static final List<FaultType> DOCUMENTED_PRECEDENCE = List.of(LINK_DOWN, LINK_DEGRADED, ECN_MISCONFIG,
        PFC_STORM, FaultType.SILENT_DROP, FaultType.UNEXPECTED_TRAFFIC, FaultType.STRAGGLER, ECMP_IMBALANCE,
        LATENCY_SLO, JOB_BOTTLENECK);

    private static final Map<String, Finding> NOTHING_OPEN = Map.of();

    /** The link down on the leaf-0 uplink explaining the imbalance it leaves on leaf-0. */
    private static final Tuple DOWN_AS_ROOT = tuple("LINK_DOWN:link:leaf-0~spine-0", true, null);
    private static final Tuple IMBALANCE_AS_ITS_VICTIM = tuple("ECMP_IMBALANCE:ecmp-group:leaf-0", false,
        "LINK_DOWN:link:leaf-0~spine-0");

    private final Correlator correlator = AlertFixtures.correlator();

    // ---- root candidates: one fault, one root ----

    @Test
    void shouldMakeAWeakerCandidateSharingADeviceWithAStrongerRootItsVictim() {
        final List<Correlated> out = correlator.correlate(List.of(LEAF0_IMBALANCE, LINK0_DOWN), NOTHING_OPEN);

        assertThat(out).extracting(Correlated::id, Correlated::finding, Correlated::rootCause, Correlated::causedBy,
                Correlated::affectedJobs)
            .containsExactly(
                tuple("LINK_DOWN:link:leaf-0~spine-0", LINK0_DOWN, true, null, List.of("train")),
                tuple("ECMP_IMBALANCE:ecmp-group:leaf-0", LEAF0_IMBALANCE, false, "LINK_DOWN:link:leaf-0~spine-0",
                    List.of("train")));
    }

    @Test
    void shouldRaiseCandidatesThatShareNoDeviceAsSeparateRoots() {
        final Finding leaf2Imbalance = root(ECMP_IMBALANCE, LEAF2_GROUP);

        final List<Correlated> out = correlator.correlate(List.of(leaf2Imbalance, LINK0_DEGRADED), NOTHING_OPEN);

        assertRoles(out).containsExactly(
            tuple(id(LINK0_DEGRADED), true, null),
            tuple(id(leaf2Imbalance), true, null));
    }

    static Stream<Arguments> strongerAndWeaker() {
        final List<Arguments> pairs = new ArrayList<>();
        for (int i = 0; i < DOCUMENTED_PRECEDENCE.size(); i++) {
            for (int j = i + 1; j < DOCUMENTED_PRECEDENCE.size(); j++) {
                pairs.add(Arguments.of(DOCUMENTED_PRECEDENCE.get(i), DOCUMENTED_PRECEDENCE.get(j)));
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("strongerAndWeaker")
    void shouldLetTheTypeEarlierInPrecedenceBeTheRootOnASharedDevice(final FaultType stronger,
                                                                     final FaultType weaker) {
        final Finding strong = root(stronger, Entity.device("leaf-0"));
        final Finding weak = root(weaker, Entity.port(new PortRef("leaf-0", "eth2")));

        final List<Correlated> out = correlator.correlate(List.of(weak, strong), NOTHING_OPEN);

        assertRoles(out).containsExactly(
            tuple(stronger + ":device:leaf-0", true, null),
            tuple(weaker + ":port:leaf-0/eth2", false, stronger + ":device:leaf-0"));
    }

    @Test
    void shouldMakeANewCandidateTheVictimOfAStrongerAlertAlreadyOpen() {
        final List<Correlated> out = correlator.correlate(List.of(LEAF0_IMBALANCE), open(LINK0_DOWN));

        assertRoles(out).containsExactly(IMBALANCE_AS_ITS_VICTIM);
    }

    @Test
    void shouldKeepAnOpenRootTheRootWhileItIsStillReported() {
        final List<Correlated> out = correlator.correlate(List.of(LEAF0_IMBALANCE, LINK0_DOWN), open(LINK0_DOWN));

        assertRoles(out).containsExactly(DOWN_AS_ROOT, IMBALANCE_AS_ITS_VICTIM);
    }

    @Test
    void shouldRaiseAStrongerFaultAsARootBesideAWeakerOpenAlertOnItsDevice() {
        final List<Correlated> out = correlator.correlate(List.of(LINK0_DOWN), open(LEAF0_IMBALANCE));

        assertRoles(out).containsExactly(DOWN_AS_ROOT);
    }

    @Test
    void shouldDemoteAWeakerOpenRootToTheVictimOfAStrongerFaultOnItsDevice() {
        final List<Correlated> out = correlator.correlate(List.of(LEAF0_IMBALANCE, LINK0_DOWN), open(LEAF0_IMBALANCE));

        assertRoles(out).containsExactly(DOWN_AS_ROOT, IMBALANCE_AS_ITS_VICTIM);
    }

    // ---- symptoms: linked to a covering root or held back ----

    static Stream<Entity> causesOnTheLeaf0Spine0Link() {
        return Stream.of(LEAF0_SPINE0, port("leaf-0", "eth2"), port("spine-0", "eth0"));
    }

    @ParameterizedTest(name = "cause {0}")
    @MethodSource("causesOnTheLeaf0Spine0Link")
    void shouldLinkASymptomWhoseCauseIsOnAnOpenRootsLink(final Entity cause) {
        final Finding pause = symptom(PFC_STORM, port("leaf-1", "eth2"), cause);

        final List<Correlated> out = correlator.correlate(List.of(pause), open(LINK0_DEGRADED));

        assertThat(out).extracting(Correlated::id, Correlated::finding, Correlated::rootCause, Correlated::causedBy,
                Correlated::affectedJobs)
            .containsExactly(tuple("PFC_STORM:port:leaf-1/eth2", pause, false, "LINK_DEGRADED:link:leaf-0~spine-0",
                List.of("train")));
    }

    @Test
    void shouldLinkASymptomToADeviceRootAtEitherEndOfItsCauseRaisedInTheSameTick() {
        final Finding ecn = root(ECN_MISCONFIG, Entity.device("spine-0"));
        final Finding latency = symptom(LATENCY_SLO, port("leaf-0", "eth2"), port("leaf-0", "eth2"));
        final Finding pause = symptom(PFC_STORM, port("leaf-1", "eth0"), LEAF0_SPINE0);

        final List<Correlated> out = correlator.correlate(List.of(latency, pause, ecn), NOTHING_OPEN);

        assertRoles(out).containsExactly(
            tuple("ECN_MISCONFIG:device:spine-0", true, null),
            tuple(id(latency), false, "ECN_MISCONFIG:device:spine-0"),
            tuple(id(pause), false, "ECN_MISCONFIG:device:spine-0"));
    }

    @Test
    void shouldHoldBackASymptomNoRootExplains() {
        final Finding otherUplink = symptom(PFC_STORM, port("leaf-1", "eth2"), port("leaf-0", "eth3"));
        final Finding otherLink = symptom(LATENCY_SLO, port("leaf-1", "eth2"), Entity.link("leaf-1", "spine-0"));
        final Finding unknownCause = symptom(PFC_STORM, port("leaf-0", "eth2"), null);

        assertThat(correlator.correlate(List.of(otherUplink, otherLink, unknownCause), open(LINK0_DEGRADED))).isEmpty();
        assertThat(correlator.correlate(List.of(symptom(PFC_STORM, port("leaf-1", "eth2"), LEAF0_SPINE0)),
            NOTHING_OPEN)).isEmpty();
    }

    /**
     * A NIC sending undeclared traffic into its leaf: the twin does not know that flow, so the leaf's group reads as
     * imbalanced wherever the flow hashes; the sender is the fault, the imbalance its victim. An imbalance
     * at another leaf stays a root of its own.
     */
    @Test
    void shouldMakeAnImbalanceWhereUndeclaredTrafficEntersTheFabricItsVictim() {
        final Finding rogue = root(FaultType.UNEXPECTED_TRAFFIC, port("host-2", "nic0"));
        final Finding atItsLeaf = root(ECMP_IMBALANCE, LEAF1_GROUP);
        final Finding elsewhere = root(ECMP_IMBALANCE, Entity.ecmpGroup("leaf-0"));

        final List<Correlated> out = correlator.correlate(List.of(atItsLeaf, elsewhere, rogue), NOTHING_OPEN);

        assertRoles(out).containsExactly(tuple(id(rogue), true, null), tuple(id(atItsLeaf), false, id(rogue)),
            tuple(id(elsewhere), true, null));
    }

    // ---- job slowdowns ----

    @Test
    void shouldAttributeASlowJobToTheStrongestRootAffectingIt() {
        final Finding leaf1Imbalance = root(ECMP_IMBALANCE, LEAF1_GROUP);
        final Finding slow = slowdown("train");

        final List<Correlated> thisTick = correlator.correlate(List.of(leaf1Imbalance, LINK0_DEGRADED, slow), NOTHING_OPEN);
        final List<Correlated> open = correlator.correlate(List.of(slow), open(leaf1Imbalance, LINK0_DEGRADED));

        assertThat(thisTick).extracting(Correlated::id, Correlated::rootCause, Correlated::causedBy,
                Correlated::affectedJobs)
            .containsExactly(
                tuple(id(LINK0_DEGRADED), true, null, List.of("train")),
                tuple(id(leaf1Imbalance), true, null, List.of("train")),
                tuple("JOB_BOTTLENECK:job:train", false, "LINK_DEGRADED:link:leaf-0~spine-0", List.of("train")));
        assertThat(open).extracting(Correlated::id, Correlated::finding, Correlated::rootCause, Correlated::causedBy)
            .containsExactly(tuple("JOB_BOTTLENECK:job:train", slow, false, id(LINK0_DEGRADED)));
    }

    @Test
    void shouldNotBlameARootThatDoesNotReachTheSlowJob() {
        final List<Correlated> out = correlator.correlate(List.of(LINK0_DEGRADED, slowdown("serve")), NOTHING_OPEN);

        assertRoles(out).containsExactly(tuple(id(LINK0_DEGRADED), true, null));
    }

    @Test
    void shouldAttributeASlowJobToTheRootBehindAVictimThatReachesIt() {
        final Finding leaf2Degraded = root(LINK_DEGRADED, LEAF2_SPINE0);
        final Finding leaf2Imbalance = root(ECMP_IMBALANCE, LEAF2_GROUP);
        assertThat(AlertFixtures.footprint().affected(LEAF2_SPINE0)).as("premise: the link slows no job").isEmpty();

        final List<Correlated> out = correlator.correlate(List.of(leaf2Imbalance, leaf2Degraded, slowdown("serve")),
            NOTHING_OPEN);

        assertThat(out).extracting(Correlated::id, Correlated::rootCause, Correlated::causedBy,
                Correlated::affectedJobs)
            .containsExactly(
                tuple(id(leaf2Degraded), true, null, List.of()),
                tuple(id(leaf2Imbalance), false, id(leaf2Degraded), List.of("serve")),
                tuple("JOB_BOTTLENECK:job:serve", false, id(leaf2Degraded), List.of("serve")));
    }

    @Test
    void shouldTurnAnUnexplainedSlowdownIntoAJobBottleneckExactlyAtUnexplainedTicks() {
        assertThat(CAL.correlation().unexplainedTicks()).as("documented").isEqualTo(15);
        final Finding slow = slowdown("serve");

        assertHeldBackFor(CAL.correlation().unexplainedTicks() - 1, slow);
        final List<Correlated> atLimit = correlator.correlate(List.of(slow), NOTHING_OPEN);

        assertThat(atLimit).extracting(Correlated::id, Correlated::finding, Correlated::rootCause,
                Correlated::causedBy, Correlated::affectedJobs)
            .containsExactly(tuple("JOB_BOTTLENECK:job:serve", slow, true, null, List.of("serve")));
    }

    @Test
    void shouldRestartTheUnexplainedCountWhenTheSlowdownStops() {
        final Finding slow = slowdown("serve");

        assertHeldBackFor(CAL.correlation().unexplainedTicks() - 1, slow);
        assertThat(correlator.correlate(List.of(), NOTHING_OPEN)).isEmpty();
        assertHeldBackFor(CAL.correlation().unexplainedTicks() - 1, slow);

        assertRoles(correlator.correlate(List.of(slow), NOTHING_OPEN))
            .containsExactly(tuple("JOB_BOTTLENECK:job:serve", true, null));
    }

    @Test
    void shouldKeepAnOpenJobBottleneckARootUntilARootReachingTheJobAppears() {
        final Finding slow = slowdown("train");
        final Map<String, Finding> bottleneckOpen = open(slow);

        final List<Correlated> alone = correlator.correlate(List.of(slow), bottleneckOpen);
        final List<Correlated> explained = correlator.correlate(List.of(slow, LINK0_DEGRADED), bottleneckOpen);

        assertRoles(alone).containsExactly(tuple("JOB_BOTTLENECK:job:train", true, null));
        assertRoles(explained).containsExactly(
            tuple(id(LINK0_DEGRADED), true, null),
            tuple("JOB_BOTTLENECK:job:train", false, id(LINK0_DEGRADED)));
    }

    @Test
    void shouldHoldBackASlowdownWhileItsJobRecoversFromAnExplainedFault() {
        final Finding slow = slowdown("train");
        assertRoles(correlator.correlate(List.of(LINK0_DEGRADED, slow), NOTHING_OPEN))
            .contains(tuple("JOB_BOTTLENECK:job:train", false, id(LINK0_DEGRADED)));

        // the recovery window, then a fresh unexplained count
        assertHeldBackFor(CAL.correlation().recoveryTicks() - 1 + CAL.correlation().unexplainedTicks() - 1, slow);

        assertRoles(correlator.correlate(List.of(slow), NOTHING_OPEN))
            .containsExactly(tuple("JOB_BOTTLENECK:job:train", true, null));
    }

    @Test
    void shouldMakeAJobBottleneckCandidateTheVictimOfAStrongerRootOnTheJobsPath() {
        final Finding held = root(JOB_BOTTLENECK, Entity.job("train"));
        final Finding offPath = root(LINK_DEGRADED, LEAF2_SPINE0);

        assertRoles(correlator.correlate(List.of(held, LINK0_DEGRADED), NOTHING_OPEN)).containsExactly(
            tuple(id(LINK0_DEGRADED), true, null),
            tuple("JOB_BOTTLENECK:job:train", false, id(LINK0_DEGRADED)));
        assertRoles(correlator.correlate(List.of(held, offPath), NOTHING_OPEN)).containsExactly(
            tuple(id(offPath), true, null),
            tuple("JOB_BOTTLENECK:job:train", true, null));
    }

    // ---- helpers ----

    // ---- symptoms of a fault elsewhere: latency from loss, a straggler behind its leaf's fault ----

    @Test
    void shouldMakeLatencyOnAPortTheLossyLinksJobsCrossItsVictimNotARoot() {
        final Finding drop = root(FaultType.SILENT_DROP, LEAF0_SPINE0);
        final Finding onTrainsPath = root(LATENCY_SLO, port("spine-1", "eth1"));
        final Finding onServeOnly = root(LATENCY_SLO, port("leaf-2", "eth0"));

        assertRoles(correlator.correlate(List.of(onTrainsPath, onServeOnly), Map.of(id(drop), drop))).containsExactly(
            tuple(id(onTrainsPath), false, id(drop)),
            tuple(id(onServeOnly), true, null));
        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(onTrainsPath, drop), NOTHING_OPEN)).containsExactly(
                tuple(id(drop), true, null),
                tuple(id(onTrainsPath), false, id(drop)));
    }

    @Test
    void shouldMakeAStragglerTheVictimOfAFaultAtItsOwnLeafSlowingItsJob() {
        final Finding straggler = root(FaultType.STRAGGLER, port("host-2", "nic0"));
        final Finding imbalanceAtItsLeaf = root(ECMP_IMBALANCE, LEAF1_GROUP);

        assertRoles(correlator.correlate(List.of(straggler, imbalanceAtItsLeaf), NOTHING_OPEN)).containsExactlyInAnyOrder(
            tuple(id(imbalanceAtItsLeaf), true, null),
            tuple(id(straggler), false, id(imbalanceAtItsLeaf)));
    }

    @Test
    void shouldMakeAStragglerTheVictimOfAFaultOnAPathItsJobsTrafficIntoItMayTake() {
        // host-0 (leaf-0) sends to host-2 (leaf-1) over leaf-0's uplinks: a degraded one slows every flow hashed
        // onto it, the ring runs at that pace, and host-2 takes in slowly while its port sees the bursts
        final Finding straggler = root(FaultType.STRAGGLER, port("host-2", "nic0"));
        final Finding degradedOnItsPath = root(LINK_DEGRADED, LEAF0_SPINE0);
        final Finding degradedOffItsPaths = root(LINK_DEGRADED, LEAF2_SPINE0);

        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(straggler), Map.of(id(degradedOnItsPath), degradedOnItsPath)))
            .containsExactly(tuple(id(straggler), false, id(degradedOnItsPath)));
        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(straggler), Map.of(id(degradedOffItsPaths), degradedOffItsPaths)))
            .containsExactly(tuple(id(straggler), true, null));
    }

    @Test
    void shouldMakeAnImbalanceTheVictimOfALinkFaultOneHopBeyondItsGroup() {
        // leaf-0—spine-0 down: spine-0 no longer reaches leaf-0, so leaf-1's traffic to leaf-0 leaves spine-0 out
        final Finding imbalance = root(ECMP_IMBALANCE, LEAF1_GROUP);
        final Finding hostLinkDown = root(FaultType.LINK_DOWN, Entity.link("host-0", "leaf-0"));

        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(imbalance), Map.of(id(LINK0_DOWN), LINK0_DOWN)))
            .containsExactly(tuple(id(imbalance), false, id(LINK0_DOWN)));
        // a degraded link routes nothing elsewhere
        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(imbalance), Map.of(id(LINK0_DEGRADED), LINK0_DEGRADED)))
            .containsExactly(tuple(id(imbalance), true, null));
        // a fault below a leaf changes no next hop of leaf-1's group
        assertRoles(new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(), CAL.correlation())
            .correlate(List.of(imbalance), Map.of(id(hostLinkDown), hostLinkDown)))
            .containsExactly(tuple(id(imbalance), true, null));
    }

    private void assertHeldBackFor(final int ticks, final Finding... findings) {
        for (int tick = 1; tick <= ticks; tick++) {
            assertThat(correlator.correlate(List.of(findings), NOTHING_OPEN)).as("tick %d of %d", tick, ticks)
                .isEmpty();
        }
    }

    private static AbstractListAssert<?, List<? extends Tuple>, Tuple, ObjectAssert<Tuple>> assertRoles(final List<Correlated> out) {
        return assertThat(out).extracting(Correlated::id, Correlated::rootCause, Correlated::causedBy);
    }

    private static Map<String, Finding> open(final Finding... roots) {
        final Map<String, Finding> out = new LinkedHashMap<>();
        for (final Finding f : roots) {
            out.put(id(f), f);
        }
        return out;
    }

    private static Entity port(final String device, final String port) {
        return Entity.port(new PortRef(device, port));
    }

    @Test
    void shouldWaitTheConfiguredTicksBeforeAnUnexplainedSlowdownIsARoot() {
        final Correlator patient = new Correlator(AlertFixtures.FABRIC, AlertFixtures.footprint(),
            new DetectionCalibration.Correlation(3, 30));
        final Finding slow = slowdown("serve");

        assertThat(patient.correlate(List.of(slow), NOTHING_OPEN)).isEmpty();
        assertThat(patient.correlate(List.of(slow), NOTHING_OPEN)).isEmpty();
        assertThat(patient.correlate(List.of(slow), NOTHING_OPEN)).extracting(Correlated::id, Correlated::rootCause)
            .containsExactly(tuple("JOB_BOTTLENECK:job:serve", true));
        assertThat(patient.unexplainedTooLong(2)).isFalse();
        assertThat(patient.unexplainedTooLong(3)).isTrue();
    }
}
