package dev.fabrictwin.twin.solver;

/**
 * The allocator's parts wired by hand, for the parts' own tests: flows of weight 1 over the given paths with the
 * given per-member caps, on links of the given capacities, the adjacency built.
 */
record SolverParts(FlowTable flows, FlowPaths paths, LinkFlows adjacency, WaterFill fill, double[] capacity,
                   int[] degree) {

    static SolverParts of(final double[] capacity, final double[] caps, final int[]... pathOf) {
        final int links = capacity.length;
        final FlowTable flows = new FlowTable();
        final FlowPaths paths = new FlowPaths();
        flows.grow(pathOf.length);
        paths.growFlows(pathOf.length);
        final int[] degree = new int[links];
        for (int f = 0; f < pathOf.length; f++) {
            flows.alive[f] = true;
            flows.weight[f] = 1;
            flows.demand[f] = caps[f];
            paths.add(f, pathOf[f], flows.alive, f + 1);
            for (final int l : pathOf[f]) {
                degree[l]++;
            }
        }
        final LinkFlows adjacency = new LinkFlows(links);
        adjacency.rebuild(links, degree, flows.alive, pathOf.length, paths);
        return new SolverParts(flows, paths, adjacency, new WaterFill(links, flows, adjacency, paths), capacity.clone(),
            degree);
    }

    /** A full water-filling with the caps in {@code capOrder} (ascending); returns the links' loads. */
    double[] fillAll(final int... capOrder) {
        fill.clear();
        for (int l = 0; l < capacity.length; l++) {
            fill.set(l, 0, degree[l]);
            if (degree[l] > 0) {
                fill.schedule(l, capacity[l] / degree[l]);
            }
        }
        for (int f = 0; f < flows.size(); f++) {
            fill.prepare(f);
        }
        fill.drain(capOrder, capOrder.length, capacity);
        final double[] load = new double[capacity.length];
        for (int l = 0; l < load.length; l++) {
            load[l] = fill.fixed(l);
        }
        return load;
    }
}
