package dev.fabrictwin.twin.solver;

/**
 * What one {@link RateAllocator#solve()} or {@link RateAllocator#resolve()} did.
 *
 * @param flowsSolved flows whose rates were recomputed (every live flow for a full solve)
 * @param linksTouched links that took part in the water-filling
 * @param iterations freezing events: one per link that saturated plus one per flow that hit its demand cap
 * @param nanos wall time of the call
 */
public record SolveStats(int flowsSolved, int linksTouched, int iterations, long nanos) {
}
