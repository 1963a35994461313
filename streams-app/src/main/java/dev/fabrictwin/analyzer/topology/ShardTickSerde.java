package dev.fabrictwin.analyzer.topology;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.shard.ShardTick;

/**
 * A shard's tick on the internal findings topic and in the correlation journal: the analyzer's own checkpoint
 * encoding (Java serialization, deflated, read back through the checkpoint's class filter). Internal to one
 * application version, like the checkpoints: nothing outside the analyzer reads it.
 */
final class ShardTickSerde {

    static final Serde<ShardTick> SERDE = Serdes.serdeFrom(
        (Serializer<ShardTick>) (topic, tick) -> tick == null ? null : AnalyzerCheckpoint.write(tick),
        (Deserializer<ShardTick>) (topic, bytes) -> bytes == null ? null : AnalyzerCheckpoint.read(bytes, ShardTick.class));

    private ShardTickSerde() {
    }
}
