package dev.fabrictwin.ingest.format.gnmi;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.twin.telemetry.SampleFormatException;
import dev.fabrictwin.twin.telemetry.SampleJson;

/**
 * The counters and gauges of one sample, filled leaf by leaf through the format's {@link CounterMapping}.
 *
 * <p>What a value becomes depends on the name it maps to:
 * <ul>
 * <li>a canonical gauge ({@code oper_up speed_bps queue_depth_bytes ...}): a gauge, any finite number; the
 *     strings of oper-status ("UP" → 1, anything else → 0) and of port speeds ("SPEED_400GB", "100G");</li>
 * <li>anything else is a counter if it is an integer: an unsigned 64-bit value, multiplied by the scale (the
 *     product wraps like the counter). A negative integer rejects the unit (NEGATIVE_COUNTER), NaN or an
 *     infinity rejects it (NOT_FINITE). A canonical counter must be an integer: a fraction or text rejects the
 *     unit (NON_NUMERIC);</li>
 * <li>a number with a fraction under a name that is not canonical is kept as a gauge under that name (it is
 *     an instant value such as a rate or a temperature, not a counter);</li>
 * <li>text and booleans under a name that is not canonical are state (names, descriptions, admin status,
 *     dates) and are ignored.</li>
 * </ul>
 * A mapping whose canonical name ends in {@code ?} is a fallback: it is used only if no other leaf of the same
 * sample maps to that name (unicast packets stand in for total packets only when the device sends no totals).
 * When two leaves map to the same canonical name, the first keeps it and the other stays under its source
 * name, so nothing is lost.
 */
final class CanonicalValues {

    static final Set<String> GAUGES = Set.of(CounterNames.OPER_UP, CounterNames.SPEED_BPS, CounterNames.QUEUE_DEPTH_BYTES,
        CounterNames.BUFFER_WATERMARK_BYTES, CounterNames.LATENCY_P50_US, CounterNames.LATENCY_P99_US);
    private static final Set<String> COUNTERS = Set.of(CounterNames.TX_BYTES, CounterNames.RX_BYTES, CounterNames.TX_PACKETS,
        CounterNames.RX_PACKETS, CounterNames.ECN_MARKED, CounterNames.CNP_SENT, CounterNames.CNP_HANDLED, CounterNames.RX_DROPS,
        CounterNames.TX_DROPS, CounterNames.FCS_ERRORS, CounterNames.FEC_CORRECTED, CounterNames.FEC_UNCORRECTABLE);
    private static final Pattern PER_PRIORITY = Pattern.compile("(tx_pfc_pause|rx_pfc_pause|rx_pause_duration_us)\\.\\d+");
    private static final Pattern SPEED = Pattern.compile("(?i)(?:SPEED_)?(\\d+(?:\\.\\d+)?)\\s*([KMGT])(?:B|BPS|BIT/S)?");
    private static final double TWO_POW_64 = 18446744073709551616.0;

    private record Deferred(String name, String source, long value, long raw, boolean gauge, double gaugeValue) {
    }

    private final Map<String, Long> counters = new LinkedHashMap<>();
    private final Map<String, Double> gauges = new LinkedHashMap<>();
    private final List<Deferred> fallbacks = new ArrayList<>();

    static boolean isCanonicalCounter(final String name) {
        return COUNTERS.contains(name) || PER_PRIORITY.matcher(name).matches();
    }

    /** Adds one leaf under its source name (module prefixes stripped, queue qualifier included). */
    void put(final CounterMapping mapping, final String source, final LeafValue value) throws SampleFormatException {
        final CounterMapping.Mapped mapped = mapping.map(source);
        if (mapped.name() == null) {
            return; // dropped on purpose by the mapping file
        }
        final boolean fallback = mapped.name().endsWith("?");
        final String name = fallback ? mapped.name().substring(0, mapped.name().length() - 1) : mapped.name();
        final long scale = mapped.scale();
        final boolean gauge = GAUGES.contains(name);
        final boolean canonicalCounter = isCanonicalCounter(name);
        LeafValue v = value;
        if (v.kind() == LeafValue.Kind.STRING && (gauge || canonicalCounter)) {
            v = LeafValue.ofText(v.text()); // a typed string value that reads as a number
        }
        switch (v.kind()) {
            case UNSIGNED -> {
                final long raw = SampleJson.parseUnsigned(v.text(), source);
                if (gauge) {
                    gauge(name, source, unsignedToDouble(raw) * scale, fallback);
                } else {
                    counter(name, source, raw * scale, raw, fallback);
                }
            }
            case NEGATIVE -> {
                if (!gauge) {
                    throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + source + " is negative: " + v.text());
                }
                gauge(name, source, Double.parseDouble(v.text()) * scale, fallback);
            }
            case FLOAT -> {
                final double d = v.number();
                if (gauge) {
                    gauge(name, source, d * scale, fallback);
                } else if (canonicalCounter) {
                    final long raw = integral(d, source);
                    counter(name, source, raw * scale, raw, fallback);
                } else {
                    gauge(name, source, d * scale, fallback);
                }
            }
            case NON_FINITE -> throw new SampleFormatException(RejectReason.NOT_FINITE, source + " is not finite: " + v.text());
            case BOOL -> {
                if (gauge) {
                    gauge(name, source, v.number(), fallback);
                } else if (canonicalCounter) {
                    throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + source + " is a boolean");
                }
            }
            case STRING -> {
                if (CounterNames.OPER_UP.equals(name)) {
                    gauge(name, source, isUp(v.text()) ? 1 : 0, fallback);
                } else if (CounterNames.SPEED_BPS.equals(name)) {
                    final Double bps = speed(v.text());
                    if (bps != null) {
                        gauge(name, source, bps, fallback); // SPEED_UNKNOWN and the like carry no value
                    }
                } else if (gauge || canonicalCounter) {
                    throw new SampleFormatException(RejectReason.NON_NUMERIC, (gauge ? "gauge " : "counter ") + source
                        + " is not a number: '" + abbreviate(v.text()) + "'");
                }
            }
            default -> throw new IllegalStateException(v.kind().toString());
        }
    }

    private static long integral(final double d, final String source) throws SampleFormatException {
        if (d < 0) {
            throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + source + " is negative: " + d);
        }
        if (d != Math.rint(d) || d >= TWO_POW_64) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + source + " is not an unsigned integer: " + d);
        }
        return new BigDecimal(d).toBigInteger().longValue();
    }

    private void counter(final String name, final String source, final long value, final long raw, final boolean fallback) {
        if (fallback) {
            fallbacks.add(new Deferred(name, source, value, raw, false, 0));
        } else if (counters.containsKey(name) || gauges.containsKey(name)) {
            counters.putIfAbsent(source, raw);
        } else {
            counters.put(name, value);
        }
    }

    private void gauge(final String name, final String source, final double value, final boolean fallback)
            throws SampleFormatException {
        if (!Double.isFinite(value)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "gauge " + source + " is not finite after scaling: " + value);
        }
        if (fallback) {
            fallbacks.add(new Deferred(name, source, 0, 0, true, value));
        } else if (gauges.containsKey(name) || counters.containsKey(name)) {
            gauges.putIfAbsent(source, value);
        } else {
            gauges.put(name, value);
        }
    }

    /** Resolves fallbacks; call once, after the last {@link #put}. */
    void finish() {
        for (final Deferred d : fallbacks) {
            final boolean taken = counters.containsKey(d.name()) || gauges.containsKey(d.name());
            if (d.gauge()) {
                gauges.putIfAbsent(taken ? d.source() : d.name(), d.gaugeValue());
            } else if (taken) {
                counters.putIfAbsent(d.source(), d.raw());
            } else {
                counters.put(d.name(), d.value());
            }
        }
        fallbacks.clear();
    }

    boolean isEmpty() {
        return counters.isEmpty() && gauges.isEmpty() && fallbacks.isEmpty();
    }

    Map<String, Long> counters() {
        return counters;
    }

    Map<String, Double> gauges() {
        return gauges;
    }

    private static double unsignedToDouble(final long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }

    /** "UP", "up", "openconfig-interfaces:UP", "true" → up; DOWN, LOWER_LAYER_DOWN, NOT_PRESENT, ... → down. */
    static boolean isUp(final String state) {
        final String s = GnmiPath.stripModule(state.strip()).toLowerCase(Locale.ROOT);
        return s.equals("up") || s.equals("true");
    }

    /** "SPEED_400GB" (OpenConfig), "100G" (SR Linux), "25Gbps" → bit/s; null when it names no speed. */
    static Double speed(final String text) {
        final Matcher m = SPEED.matcher(GnmiPath.stripModule(text.strip()));
        if (!m.matches()) {
            return null;
        }
        final double unit = switch (Character.toUpperCase(m.group(2).charAt(0))) {
            case 'K' -> 1e3;
            case 'M' -> 1e6;
            case 'G' -> 1e9;
            default -> 1e12;
        };
        return Double.parseDouble(m.group(1)) * unit;
    }

    private static String abbreviate(final String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
