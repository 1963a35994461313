package dev.fabrictwin.cli;

import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.model.ModelParams;

/** {@code --shards N} checked against a scenario's fabric before anything runs: a bad N is a usage error. */
final class Shards {

    private Shards() {
    }

    static void check(final Scenario scenario, final int shards) {
        if (shards < 1) {
            throw new UsageException("--shards must be >= 1, was " + shards);
        }
        if (shards > 1) {
            try {
                ShardMap.of(Twin.healthy(scenario, ModelParams.defaults()).fabric(), shards);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--shards " + shards + ": " + e.getMessage());
            }
        }
    }
}
