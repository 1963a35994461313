package dev.fabrictwin.analyzer.detect;

/**
 * What a detector knows of the shard it judges (docs/analyzer.md, "Sharding"): which devices have ports another shard
 * judges. The shard map implements it; detectors see only this, so the sharding can change without them.
 */
public interface ShardView {

    /** Whether the node has ports judged by another shard (a spine or core serving several domains). */
    boolean boundary(int node);
}
