package dev.fabrictwin.kafka.common;

import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Producer settings for telemetry: idempotent, acks=all, lz4, batched; key = device (String), value = bytes. */
public final class ProducerSettings {

    private ProducerSettings() {
    }

    /** {@code base} carries bootstrap servers and any security settings; ours are added unless already set. */
    public static Properties telemetry(final Properties base) {
        final Properties p = new Properties();
        p.putAll(base);
        p.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        p.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "10");
        p.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        p.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(64L * 1024 * 1024));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }
}
