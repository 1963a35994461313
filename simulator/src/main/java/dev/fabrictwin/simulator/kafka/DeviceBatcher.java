package dev.fabrictwin.simulator.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleJson;

/**
 * Groups samples into per-device batches — one {@code telemetry.samples} record per device per sampling round,
 * a JSON array of its ports' canonical samples — because the analyzer's cost is per record as much as per
 * sample (bench streams). A device's batch is sent when a sample of a later round arrives for it, or on
 * {@link #flush()} (the publisher flushes whenever it is about to wait, so pacing adds no latency).
 */
final class DeviceBatcher {

    private final long halfIntervalMs;
    private final BiConsumer<String, byte[]> send;
    private final Map<String, List<Sample>> pending = new LinkedHashMap<>();

    DeviceBatcher(final long sampleIntervalMs, final BiConsumer<String, byte[]> send) {
        this.halfIntervalMs = Math.max(1, sampleIntervalMs / 2);
        this.send = send;
    }

    void add(final Sample sample) {
        final List<Sample> batch = pending.get(sample.device());
        if (batch != null && Math.abs(sample.ts() - batch.get(0).ts()) > halfIntervalMs) {
            sendBatch(sample.device(), pending.remove(sample.device()));
        }
        pending.computeIfAbsent(sample.device(), d -> new ArrayList<>()).add(sample);
    }

    void flush() {
        pending.forEach(this::sendBatch);
        pending.clear();
    }

    private void sendBatch(final String device, final List<Sample> batch) {
        send.accept(device, batch.size() == 1 ? SampleJson.writeBytes(batch.get(0)) : SampleJson.writeBatch(batch));
    }
}
