package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.sim.SimParts.nic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.sim.FluidSimulation.ExplicitFlow;

class CompletionsTest {

    private final SimParts parts = new SimParts(1);
    private final Completions completions = new Completions(parts.flows, parts.allocator);
    /** Payload bytes per second a lone flow gets from its NIC. */
    private final double line = 100e9 / parts.wire / 8;

    @Test
    void shouldFinishAFlowWhenItsBytesAreDeliveredAtTheRateInForce() {
        final SimFlow f = parts.flow(0, 2, line); // one second of line rate
        parts.allocator.resolve();

        assertThat(completions.nextExact(0)).isCloseTo(1.0, within(1e-12));
        completions.advance(0, 0.5);
        assertThat(f.remainingBytes).isCloseTo(line / 2, within(1e-3));
        assertThat(completions.finishExactly()).isEmpty();

        completions.nextExact(0.5);
        completions.advance(0.5, 1.0);
        assertThat(completions.finishExactly()).containsExactly(f);
        assertThat(parts.flows).isEmpty();
        assertThat(f.ids).isEmpty(); // it left the allocator
    }

    @Test
    void shouldFinishFlowsWithinATenthOfAPercentOfDoneTogether() {
        final SimFlow a = parts.flow(0, 2, line);
        final SimFlow b = parts.flow(3, 1, line * 1.0005);
        parts.allocator.resolve();
        completions.nextExact(0);
        completions.advance(0, 1.0);

        // delivered in reverse order of the list, as the simulation always has
        assertThat(completions.finishExactly()).containsExactly(b, a);
    }

    @Test
    void shouldCompleteCoarselyBetweenSolvesAndSolveAgainOnTheNextGridInstant() {
        completions.setGrid(0.05);
        final SimFlow f = parts.flow(0, 2, line * 0.12);
        parts.allocator.resolve();
        completions.beforeSolve(0);
        completions.afterSolve(0);

        assertThat(completions.coarse()).isTrue();
        assertThat(completions.nextDue()).isCloseTo(0.12, within(1e-12));
        assertThat(completions.pollDue(0.1)).isNull();
        assertThat(completions.pollDue(0.12)).isSameAs(f);
        completions.completeCoarsely(f, 0.12);

        assertThat(completions.nextSolve()).isCloseTo(0.15, within(1e-12));
        assertThat(f.delivered).isTrue();
        completions.beforeSolve(0.15);
        assertThat(parts.flows).isEmpty();
        assertThat(completions.nextSolve()).isInfinite();
    }

    @Test
    void shouldRecordEachRunOfARepeatedExplicitFlow() {
        final int index = completions.addExplicit(new ExplicitFlow("x", nic(0), nic(2), 1e6, 2, 0.5));
        final SimFlow run = parts.flow(0, 2, 1e6);
        run.explicit = index;
        run.startedAt = 3;

        completions.delivered(run, 3.25);
        completions.delivered(parts.flow(1, 3, 1e6), 3.3); // a job's flow: no record

        assertThat(completions.flowCompletions()).containsExactly(new FlowCompletion("x", 2, 3, 3.25));
        completions.forgetBefore(4);
        assertThat(completions.flowCompletions()).isEmpty();
    }
}
