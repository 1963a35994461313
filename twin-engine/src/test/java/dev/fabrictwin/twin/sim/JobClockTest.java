package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Placement;

class JobClockTest {

    /** A ring of 1 s iterations, 0.6 s of compute. */
    private static final String RING = """
        name: clock
        seed: 3
        fabric: {kind: spine-leaf, spines: 1, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: ring, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 1GB, iterationPeriod: 1s, commFraction: 0.4}
        """;

    private final EventQueue events = new EventQueue();
    private final JobClock clock = new JobClock(events, 3);
    private final JobState ring = clock.register(placed());

    @Test
    void shouldStartTheFirstCommPhaseAfterThePhaseOffsetAndOneComputePhase() {
        ring.phaseOffset = 0.25;

        clock.scheduleFirstIteration(ring, 0);

        assertThat(clock.nextCommStart(ring)).isCloseTo(0.85, within(1e-12));
        assertThat(events.pollDue(0.85).kind()).isEqualTo(EventKind.COMM_START);
        assertThat(clock.isRunning("ring", 0.2)).isFalse();
        assertThat(clock.isRunning("ring", 0.3)).isTrue();
    }

    @Test
    void shouldRecordTheIterationAndStartTheNextComputePhaseWhenCommEnds() {
        clock.scheduleFirstIteration(ring, 0);
        events.pollDue(0.6);
        clock.startComm(ring, 0.6);

        clock.endComm(ring, 0.75);

        assertThat(clock.iterations()).containsExactly(new IterationRecord("ring", 0, 0, 0.6, 0.75));
        assertThat(ring.lastCommSeconds).isCloseTo(0.15, within(1e-12));
        assertThat(clock.nextCommStart(ring)).isCloseTo(1.35, within(1e-12));
    }

    @Test
    void shouldMoveTheNextCommPhaseButNeverOneInProgress() {
        clock.scheduleFirstIteration(ring, 0);

        assertThat(clock.retimeNextComm(ring, 0.5, 0.1)).isTrue();
        assertThat(clock.nextCommStart(ring)).isEqualTo(0.5);
        assertThat(clock.retimeNextComm(ring, 0.05, 0.1)).isTrue(); // never before now
        assertThat(clock.nextCommStart(ring)).isEqualTo(0.1);

        events.pollDue(0.1);
        clock.startComm(ring, 0.1);
        assertThat(clock.retimeNextComm(ring, 0.9, 0.2)).isFalse();
        assertThat(clock.nextCommStart(ring)).isNaN();
    }

    @Test
    void shouldDriftComputePhasesFromTheJobsSeededStream() {
        final JobClock other = new JobClock(new EventQueue(), 3);
        final JobState same = other.register(placed());
        clock.setComputeJitter(0.1);
        other.setComputeJitter(0.1);

        clock.endComm(ring, 1);
        other.endComm(same, 1);

        final double next = clock.nextCommStart(ring);
        assertThat(next).isNotCloseTo(1.6, within(1e-6)); // drifted
        assertThat(next).isBetween(1.3, 1.9);
        assertThat(other.nextCommStart(same)).isEqualTo(next); // the same seed drifts the same
    }

    @Test
    void shouldCancelWhatIsPendingForAJobThatEnded() {
        clock.scheduleFirstIteration(ring, 0);
        clock.scheduleEnd(ring, 5);

        clock.ended(ring, 2);

        assertThat(events.nextTime()).isInfinite();
        assertThat(clock.isRunning("ring", 1)).isTrue();
        assertThat(clock.isRunning("ring", 2)).isFalse();
        assertThatThrownBy(() -> clock.job("nope")).hasMessage("unknown job 'nope'");
    }

    private static PlacedJob placed() {
        final Scenario s = scenario(RING);
        final Fabric fabric = s.fabric().build(s.name());
        final List<PlacedJob> jobs = Placement.place(fabric, s.jobs(), s.seed());
        return jobs.get(0);
    }
}
