package dev.fabrictwin.analyzer.rates;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each device's latest time and the event time they support together: the newest time that another device comes
 * within {@code supportMs} of. One device whose clock runs far ahead of every other sets nothing — letting it set
 * event time would make every other device late, or stall the lane its records travel in — and
 * {@link #ahead()} names it. With fewer than three devices the newest is taken (two cannot tell a clock running
 * ahead from a device that stopped). Memory: one entry per device, removed by {@link #forget}.
 */
public final class DeviceClocks implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long supportMs;
    private final Map<String, Long> latestByDevice = new HashMap<>();
    /** The values of {@link #latestByDevice} as a multiset: ordered, so the newest supported one is found at once. */
    private final TreeMap<Long, Integer> latestCounts = new TreeMap<>();

    public DeviceClocks(final long supportMs) {
        if (supportMs < 0) {
            throw new IllegalArgumentException("support span must be >= 0 ms");
        }
        this.supportMs = supportMs;
    }

    /** The device reported up to {@code t}; an older time changes nothing. */
    public void advance(final String device, final long t) {
        final Long before = latestByDevice.get(device);
        if (before != null && before >= t) {
            return;
        }
        latestByDevice.put(device, t);
        if (before != null) {
            latestCounts.computeIfPresent(before, (k, n) -> n == 1 ? null : n - 1);
        }
        latestCounts.merge(t, 1, Integer::sum);
    }

    /** Forgets a device (it went silent): it no longer holds event time back or supports it. */
    public void forget(final String device) {
        final Long before = latestByDevice.remove(device);
        if (before != null) {
            latestCounts.computeIfPresent(before, (k, n) -> n == 1 ? null : n - 1);
        }
    }

    /** The newest time another device comes near; {@link Long#MIN_VALUE} when no device reported. */
    public long supportedNewest() {
        if (latestCounts.isEmpty()) {
            return Long.MIN_VALUE;
        }
        if (latestByDevice.size() < 3) {
            return latestCounts.lastKey();
        }
        Map.Entry<Long, Integer> top = latestCounts.lastEntry();
        while (true) {
            final Map.Entry<Long, Integer> below = latestCounts.lowerEntry(top.getKey());
            if (top.getValue() >= 2 || below == null || top.getKey() - below.getKey() <= supportMs) {
                return top.getKey();
            }
            top = below;
        }
    }

    /** The oldest device time at or after {@code oldest} (the slowest device still live), or null. */
    public Long slowestSince(final long oldest) {
        return latestCounts.ceilingKey(oldest);
    }

    /** The device's latest time, if it reported. */
    public Long latest(final String device) {
        return latestByDevice.get(device);
    }

    /** Devices more than the support span ahead of {@code eventTime}, and by how much (ms), by name. */
    public Map<String, Long> ahead(final long eventTime) {
        if (eventTime == Long.MIN_VALUE || latestCounts.isEmpty() || latestCounts.lastKey() <= eventTime + supportMs) {
            return Map.of();
        }
        final Map<String, Long> out = new TreeMap<>();
        latestByDevice.forEach((device, t) -> {
            if (t > eventTime + supportMs) {
                out.put(device, t - eventTime);
            }
        });
        return out;
    }
}
