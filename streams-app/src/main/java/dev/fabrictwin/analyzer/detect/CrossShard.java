package dev.fabrictwin.analyzer.detect;

import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;

/**
 * One tick as the correlation stage of a sharded analysis put it together, for {@link Detector#acrossShards}: what
 * each shard reported at its edge, and who reports an entity several shards could.
 */
public interface CrossShard {

    /** The PFC pauses crossing each reporting shard's edge, by shard number in shard order. */
    Map<Integer, PfcBoundary> pfc();

    /**
     * Whether {@code shard} reports {@code f}: true unless another shard reported the same type on the same entity
     * first; the entity is then this shard's.
     */
    boolean claim(int shard, Finding f);

    DetectionCalibration calibration();
}
