package dev.fabrictwin.ingest.format;

import java.time.Clock;
import java.time.Duration;

/**
 * What an adapter may need beyond the bytes: the device name when the format lacks one ({@code --device}),
 * the timestamp to use when the format has none (Prometheus text, ethtool dumps), and the validation limits.
 *
 * @param device           device name to use when the data names none; null if not given
 * @param port             port name to use when the data names none ({@code ethtool -S} prints no interface); null if
 *                         not given
 * @param defaultTimestamp epoch ms for formats without timestamps
 * @param clock            "now", for rejecting timestamps too far in the future or past
 * @param maxFuture        how far ahead of the clock a timestamp may be
 * @param maxPast          how far behind the clock a timestamp may be
 * @param maxRecordBytes   larger input units are rejected as oversized
 */
public record ParseContext(String device, String port, long defaultTimestamp, Clock clock, Duration maxFuture, Duration maxPast,
                           int maxRecordBytes) {

    public static final int DEFAULT_MAX_RECORD_BYTES = 1 << 20;

    /** Defaults: timestamps within one day ahead and ten years back of now; records up to 1 MiB. */
    public static ParseContext defaults(final Clock clock) {
        return new ParseContext(null, null, clock.millis(), clock, Duration.ofDays(1), Duration.ofDays(3650),
            DEFAULT_MAX_RECORD_BYTES);
    }

    public ParseContext withDevice(final String deviceName) {
        return new ParseContext(deviceName, port, defaultTimestamp, clock, maxFuture, maxPast, maxRecordBytes);
    }

    public ParseContext withPort(final String portName) {
        return new ParseContext(device, portName, defaultTimestamp, clock, maxFuture, maxPast, maxRecordBytes);
    }

    public ParseContext withDefaultTimestamp(final long epochMillis) {
        return new ParseContext(device, port, epochMillis, clock, maxFuture, maxPast, maxRecordBytes);
    }

    /** Accepts any timestamp (for replaying captures or simulated time far from now). */
    public ParseContext withoutTimeWindow() {
        return new ParseContext(device, port, defaultTimestamp, clock, Duration.ofDays(365L * 1000), Duration.ofDays(365L * 1000),
            maxRecordBytes);
    }
}
