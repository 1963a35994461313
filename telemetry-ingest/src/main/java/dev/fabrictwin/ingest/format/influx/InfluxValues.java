package dev.fabrictwin.ingest.format.influx;

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
 * The counters and gauges of one line, filled field by field through {@code mappings/influx.tsv}.
 *
 * <p>What a field becomes depends on its line-protocol type and the name it maps to:
 * <ul>
 * <li>integers ({@code 12i}, {@code 12u}): counters (unsigned 64-bit, times the mapping's scale, wrapping like
 *     the counter), or gauges when the name is a canonical gauge ({@code speed} → {@code speed_bps});
 *     a negative integer under any other name rejects the line as NEGATIVE_COUNTER;</li>
 * <li>floats: a gauge when the name is a canonical gauge; under a canonical counter name only a whole,
 *     non-negative float is accepted (a fraction is NON_NUMERIC: a counter cannot count half a packet); under
 *     any other name a float is an instant value and is kept as a gauge under that name;</li>
 * <li>NaN and infinities reject the line (NOT_FINITE); an unquoted value that is not a number or boolean
 *     rejects it (NON_NUMERIC);</li>
 * <li>strings and booleans: state, ignored, except under {@code oper_up} ("UP"/true → 1, else 0) and
 *     {@code speed_bps} ("100G"); a string under a canonical counter name is NON_NUMERIC unless it reads as an
 *     integer.</li>
 * </ul>
 * A mapping whose canonical name ends in {@code ?} is a fallback, used only if no other field of the line maps
 * to that name. When two fields map to the same canonical name, the first keeps it and the other stays under its
 * source name.
 */
final class InfluxValues {

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

    void put(final CounterMapping mapping, final String source, final LineProtocol.Field field) throws SampleFormatException {
        final CounterMapping.Mapped mapped = mapping.map(source);
        if (mapped.name() == null) {
            return; // dropped on purpose by the mapping file
        }
        final boolean fallback = mapped.name().endsWith("?");
        final String name = fallback ? mapped.name().substring(0, mapped.name().length() - 1) : mapped.name();
        final long scale = mapped.scale();
        final boolean gauge = GAUGES.contains(name);
        final boolean canonicalCounter = isCanonicalCounter(name);
        LineProtocol.Field f = field;
        if (f.type() == LineProtocol.Field.Type.STRING && (gauge || canonicalCounter)) {
            final String t = f.text().strip();
            final LineProtocol.Field reread = t.matches("[+-]?\\d+") ? LineProtocol.classify(t + "i") : LineProtocol.classify(t);
            if (reread.type() != LineProtocol.Field.Type.INVALID && reread.type() != LineProtocol.Field.Type.BOOL) {
                f = reread; // "12345" written as a string
            }
        }
        switch (f.type()) {
            case UNSIGNED -> {
                final long raw = SampleJson.parseUnsigned(f.text(), source);
                if (gauge) {
                    gauge(name, source, unsignedToDouble(raw) * scale, fallback);
                } else {
                    counter(name, source, raw * scale, raw, fallback);
                }
            }
            case NEGATIVE -> {
                if (!gauge) {
                    throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + source + " is negative: " + f.text());
                }
                gauge(name, source, Double.parseDouble(f.text()) * scale, fallback);
            }
            case FLOAT -> {
                final double d = f.number();
                if (canonicalCounter) {
                    final long raw = integral(d, source);
                    counter(name, source, raw * scale, raw, fallback);
                } else {
                    gauge(name, source, d * scale, fallback);
                }
            }
            case NON_FINITE -> throw new SampleFormatException(RejectReason.NOT_FINITE, "field " + source + " is not finite: " + f.text());
            case INVALID -> throw new SampleFormatException(RejectReason.NON_NUMERIC, "field " + source + " is not a number: '"
                + abbreviate(f.text()) + "'");
            case BOOL -> {
                if (gauge) {
                    gauge(name, source, f.number(), fallback);
                } else if (canonicalCounter) {
                    throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + source + " is a boolean");
                }
            }
            case STRING -> {
                if (CounterNames.OPER_UP.equals(name)) {
                    gauge(name, source, isUp(f.text()) ? 1 : 0, fallback);
                } else if (CounterNames.SPEED_BPS.equals(name)) {
                    final Double bps = speed(f.text());
                    if (bps != null) {
                        gauge(name, source, bps, fallback);
                    }
                } else if (gauge || canonicalCounter) {
                    throw new SampleFormatException(RejectReason.NON_NUMERIC, (gauge ? "gauge " : "counter ") + source
                        + " is not a number: '" + abbreviate(f.text()) + "'");
                }
            }
            default -> throw new IllegalStateException(f.type().toString());
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

    Map<String, Long> counters() {
        return counters;
    }

    Map<String, Double> gauges() {
        return gauges;
    }

    private static double unsignedToDouble(final long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }

    static boolean isUp(final String state) {
        String s = state.strip();
        s = s.substring(s.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT);
        return s.equals("up") || s.equals("true");
    }

    static Double speed(final String text) {
        String s = text.strip();
        s = s.substring(s.lastIndexOf(':') + 1);
        final Matcher m = SPEED.matcher(s);
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
