package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.List;

/** One anomaly signature judged against the twin; called once per closed tick, may keep its own windows. */
public interface Detector extends Serializable {

    void detect(TickContext context, List<Finding> out);

    /**
     * Sharded analyses only: what this signature finds over the whole fabric once every shard's findings of a tick
     * were {@code merged} (in shard order), from what the shards reported at their edges ({@code tick}). Called by the
     * correlation stage on detectors of its own, which have seen no tick: it may read and change {@code merged}, never
     * its own windows. Most signatures are judged whole within one shard and add nothing.
     */
    default void acrossShards(final CrossShard tick, final List<Finding> merged) {
    }
}
