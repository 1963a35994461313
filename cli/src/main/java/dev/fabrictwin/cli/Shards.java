package dev.fabrictwin.cli;

import java.util.function.Supplier;

import dev.fabrictwin.analyzer.replay.ReplayDocuments;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.model.ModelParams;

/** {@code --shards N} checked against a scenario's (or a topology document's) fabric before anything runs: a bad N is a usage error. */
final class Shards {

    private Shards() {
    }

    static void check(final Scenario scenario, final int shards) {
        check(() -> Twin.healthy(scenario, ModelParams.defaults()).fabric(), shards);
    }

    /** As above, for the fabric of a replay's topology document. */
    static void check(final ReplayDocuments documents, final int shards) {
        check(documents::fabric, shards);
    }

    private static void check(final Supplier<Fabric> fabric, final int shards) {
        if (shards < 1) {
            throw new UsageException("--shards must be >= 1, was " + shards);
        }
        if (shards > 1) {
            try {
                ShardMap.of(fabric.get(), shards);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--shards " + shards + ": " + e.getMessage());
            }
        }
    }
}
