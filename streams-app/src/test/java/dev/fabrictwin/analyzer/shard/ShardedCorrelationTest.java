package dev.fabrictwin.analyzer.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.CrossShard;
import dev.fabrictwin.analyzer.detect.Detector;
import dev.fabrictwin.analyzer.detect.Detectors;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.PfcBoundary;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.workload.Pattern;

/** The correlation stage's bookkeeping: a tick waits for every shard, a job is reported by its home shard. */
class ShardedCorrelationTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** leaf-0 (host-0, host-1) is shard 0, leaf-1 (host-2, host-3) shard 1; job j has 3 of its 4 NICs in shard 1. */
    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2),
        HandTicks.job("j", Pattern.RING_ALLREDUCE, "host-0", "host-2", "host-3"));
    private final ShardMap map = ShardMap.of(hand.fabric(), 2);
    private final ShardedCorrelation correlation = new ShardedCorrelation(hand.twin(), map, AnalyzerConfig.defaults(1_000));

    private static final Finding DOWN = Finding.root(FaultType.LINK_DOWN, Entity.link("leaf-0", "spine-0"), "oper_up", 0, 1,
        Severity.CRITICAL, "leaf-0 eth2 is down");

    private static ShardTick tick(final int shard, final long index, final List<Finding> findings, final List<JobHealth> health) {
        final long end = HandTicks.EPOCH_MS + index * 1_000;
        return new ShardTick(shard, index, end - 1_000, end, findings, health, PfcBoundary.NONE);
    }

    private static JobHealth health(final long index, final double slowdown) {
        return new JobHealth("j", HandTicks.EPOCH_MS + index * 1_000, 100, 100 * slowdown, slowdown, 1e9, 1e9, 0.9, null, null);
    }

    @Test
    void aTickIsCorrelatedOnceEveryShardHasReportedIt() {
        assertThat(correlation.accept(tick(0, 1, List.of(DOWN), List.of())).ticks()).isZero();
        assertThat(correlation.accept(tick(1, 1, List.of(), List.of())).ticks()).isEqualTo(1);
        assertThat(correlation.accept(tick(0, 2, List.of(DOWN), List.of())).alerts()).isEmpty();
        final ShardedCorrelation.Output second = correlation.accept(tick(1, 2, List.of(), List.of()));
        assertThat(second.alerts()).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(Alert.State.OPEN); // two ticks in a row: as unsharded
            assertThat(a.firstSeen()).isEqualTo(HandTicks.EPOCH_MS);
        });
    }

    @Test
    void aShardThatFallsSilentHoldsTheOthersBackOnlyAWhile() {
        for (long i = 1; i <= ShardedCorrelation.WAIT_TICKS + 1; i++) {
            assertThat(correlation.accept(tick(0, i, List.of(), List.of())).ticks()).as("tick %d", i).isZero();
        }
        assertThat(correlation.accept(tick(0, ShardedCorrelation.WAIT_TICKS + 2, List.of(), List.of())).ticks()).isEqualTo(1);
        // the silent shard's tick that comes late joins the next one (its findings are not lost), correlated in turn
        assertThat(correlation.accept(tick(1, 1, List.of(DOWN), List.of())).ticks()).isZero();
        assertThat(correlation.lateTicks()).isEqualTo(1);
        assertThat(correlation.accept(tick(0, ShardedCorrelation.WAIT_TICKS + 3, List.of(), List.of())).ticks()).isEqualTo(1);
    }

    @Test
    void aJobIsReportedAndJudgedByTheShardHoldingMostOfItsNics() {
        final Finding slowInShard0 = Finding.symptom(FaultType.JOB_BOTTLENECK, Entity.job("j"), null, "comm_ms", 300, 100, "slow");
        correlation.accept(tick(0, 1, List.of(slowInShard0), List.of(health(1, 3.0))));
        final ShardedCorrelation.Output out = correlation.accept(tick(1, 1, List.of(), List.of(health(1, 1.0))));
        assertThat(out.jobHealth()).singleElement().satisfies(h -> assertThat(h.slowdown()).isEqualTo(1.0));
        assertThat(ShardedCorrelation.findings(new ShardTick[] {tick(0, 1, List.of(slowInShard0), List.of()),
            tick(1, 1, List.of(), List.of())}, job -> map.homeOf(hand.fabric(), hand.twin().jobs().get(0)), Detectors.all(), CAL)).isEmpty();
    }

    @Test
    void aJobDeclaredLaterIsReportedFromItsHomeShardOnceFollowed() {
        final HandTicks before = HandTicks.on(HandTicks.spineLeaf(2));
        final ShardedCorrelation later = new ShardedCorrelation(before.twin(), map, AnalyzerConfig.defaults(1_000));
        later.accept(tick(0, 1, List.of(), List.of(health(1, 1.0))));
        assertThat(later.accept(tick(1, 1, List.of(), List.of(health(1, 1.0)))).jobHealth()).as("an undeclared job").isEmpty();

        later.follow(hand.twin()); // j declared: 3 of its 4 NICs under leaf-1
        later.accept(tick(0, 2, List.of(), List.of(health(2, 2.0))));
        assertThat(later.accept(tick(1, 2, List.of(), List.of(health(2, 1.0)))).jobHealth()).singleElement()
            .satisfies(h -> assertThat(h.slowdown()).isEqualTo(1.0));
    }

    @Test
    void anEntityTwoShardsReportIsTakenFromTheFirst() {
        final Finding other = Finding.root(FaultType.LINK_DOWN, Entity.link("leaf-0", "spine-0"), "oper_up", 0, 1,
            Severity.CRITICAL, "seen from shard 1");
        assertThat(ShardedCorrelation.findings(new ShardTick[] {tick(0, 1, List.of(DOWN), List.of()),
            tick(1, 1, List.of(other), List.of())}, job -> 0, Detectors.all(), CAL)).containsExactly(DOWN);
    }

    @Test
    void shouldLetEveryDetectorCompleteTheMergedFindingsWithoutNamingIt() {
        final Finding late = Finding.root(FaultType.LINK_DOWN, Entity.link("leaf-1", "spine-0"), "oper_up", 0, 1,
            Severity.CRITICAL, "seen only across shards");
        final Detector acrossOnly = new Detector() {
            @Override
            public void detect(final TickContext context, final List<Finding> out) {
            }

            @Override
            public void acrossShards(final CrossShard tick, final List<Finding> merged) {
                assertThat(tick.pfc().keySet()).containsExactly(0, 1);
                if (tick.claim(1, late) && !tick.claim(1, DOWN)) { // DOWN is shard 0's, reported first
                    merged.add(late);
                }
            }
        };

        assertThat(ShardedCorrelation.findings(new ShardTick[] {tick(0, 1, List.of(DOWN), List.of()),
            tick(1, 1, List.of(), List.of())}, job -> 0, List.of(acrossOnly), CAL)).containsExactly(DOWN, late);
    }
}
