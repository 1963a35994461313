package dev.fabrictwin.ingest.format.support;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * The counters and gauges of one sample of a typed format (gNMI leaves, line-protocol fields), filled value by
 * value through the format's {@link CounterMapping}. The formats whose values are untyped numbers (prometheus,
 * ethtool, sysfs, sonic) fill {@link CounterAccumulator} instead: it breaks ties by source name and sums or
 * prefers sources, which the typed formats' mapping files never ask for.
 *
 * <p>What a value becomes depends on its {@link InputValue.Kind} and the name it maps to:
 * <ul>
 * <li>integers: counters (unsigned 64-bit, times the mapping's scale, wrapping like the counter), or gauges when
 *     the name is a canonical gauge ({@code oper_up speed_bps queue_depth_bytes ...}) or an instant value by name
 *     ({@link InstantValues}: a watermark, a peak, a current depth); a negative integer under any other name
 *     rejects the unit (NEGATIVE_COUNTER);</li>
 * <li>floats: a gauge under a canonical gauge name; under a canonical counter name only a whole, non-negative
 *     float is accepted (a fraction is NON_NUMERIC: a counter cannot count half a packet); under any other name
 *     a float is an instant value (a rate, a temperature) and is kept as a gauge under that name;</li>
 * <li>NaN and infinities reject the unit (NOT_FINITE); text that is no value of its format rejects it
 *     (NON_NUMERIC);</li>
 * <li>strings and booleans: state (names, descriptions, admin status, dates), ignored, except under
 *     {@code oper_up} ("UP"/true/"im-state-up" → 1, else 0) and {@code speed_bps} ("SPEED_400GB", "100G"). A string under a
 *     canonical name is read again as a number in the format's own syntax (RFC 7951 carries 64-bit integers as
 *     strings); one that is no number is NON_NUMERIC under a canonical counter or gauge name.</li>
 * </ul>
 * Canonical counter names are those a sample carries ({@link Canonical#isSampleCounter}): a bare
 * {@code rx_pfc_pause} is not one.
 *
 * <p>This class interprets the mapping-file marker {@code ?}: a canonical name ending in {@code ?} is a fallback,
 * used only if no other value of the same sample maps to that name (unicast packets stand in for total packets
 * only when the device sends no totals). When two values map to the same name, the first keeps it and the other
 * stays under its source name, unscaled, unless that name is taken too. That is two sources; one source given twice
 * (the same leaf in two updates of one notification, of one queue or priority) is a repeated key: its first value is
 * kept and the repeat goes to the {@code repeated} listener ({@link RepeatedKeys}). The markers {@code !} and {@code +} are
 * {@link CounterAccumulator}'s and are not read here (see {@link CounterMapping}).
 */
public final class SampleValues {

    private static final Pattern SPEED = Pattern.compile("(?i)(?:SPEED_)?(\\d+(?:\\.\\d+)?)\\s*([KMGT])(?:B|BPS|BIT/S)?");
    private static final double TWO_POW_64 = 18446744073709551616.0;

    private record Deferred(String name, String source, long value, long raw, boolean gauge, double gaugeValue) {
    }

    private final CounterMapping mapping;
    private final String noun;
    private final Function<String, InputValue> numberInString;
    private final Map<String, Long> counters = new LinkedHashMap<>();
    private final Map<String, Double> gauges = new LinkedHashMap<>();
    private final List<Deferred> fallbacks = new ArrayList<>();
    private final Consumer<String> repeated;
    private final Set<String> sources = new HashSet<>();

    /**
     * @param mapping        the format's counter mapping
     * @param noun           how messages name a value that is not (yet) a counter or gauge, e.g. {@code "field "};
     *                       empty when the source name says enough (a gNMI path)
     * @param numberInString reads a string under a canonical name as the format writes numbers; returns a
     *                       {@link InputValue.Kind#STRING} when the text is no number
     */
    public SampleValues(final CounterMapping mapping, final String noun, final Function<String, InputValue> numberInString) {
        this(mapping, noun, numberInString, key -> { });
    }

    /** @param repeated told of each source name given twice for one queue and priority (its first value is kept) */
    public SampleValues(final CounterMapping mapping, final String noun, final Function<String, InputValue> numberInString,
                        final Consumer<String> repeated) {
        this.mapping = mapping;
        this.noun = noun;
        this.numberInString = numberInString;
        this.repeated = repeated;
    }

    /** Adds one value under its source name (as the format names it: a field key, a qualified leaf name). */
    public void put(final String source, final InputValue value) throws SampleFormatException {
        put(source, value, null, null);
    }

    /**
     * Adds one value of a queue or a priority (either may be null). A per-priority counter ({@code rx_pfc_pause})
     * takes the priority as {@code rx_pfc_pause.<p>}; every other name takes the queue, or else the priority (a
     * priority is its traffic class's queue in a lossless fabric), as {@link QueueDimension} names it.
     */
    public void put(final String source, final InputValue value, final String queue, final String priority)
            throws SampleFormatException {
        final CounterMapping.Mapped mapped = mapping.map(source);
        if (mapped.name() == null) {
            return; // dropped on purpose by the mapping file
        }
        if (!sources.add(queue == null && priority == null ? source : source + '\u0000' + queue + '\u0000' + priority)) {
            repeated.accept(source); // a repeated key: the first value stands, this one is left out unread
            return;
        }
        final boolean fallback = mapped.name().endsWith("?");
        String name = fallback ? mapped.name().substring(0, mapped.name().length() - 1) : mapped.name();
        final long scale = mapped.scale();
        final boolean canonicalGauge = Canonical.isGauge(name);
        final boolean perPriority = Canonical.isCounter(name) && !Canonical.isSampleCounter(name);
        final boolean canonicalCounter = Canonical.isSampleCounter(name) || perPriority && priority != null;
        if (perPriority && priority != null) {
            name = name + "." + ListKeys.unquote(priority);
        } else if (queue != null || priority != null) {
            name = QueueDimension.name(name, queue != null ? queue : priority);
        } else {
            name = QueueDimension.bound(name);
        }
        // an instant value (a watermark, a peak, a current depth) is a gauge even when it arrives as an integer
        final boolean gauge = canonicalGauge
            || !canonicalCounter && (InstantValues.isInstant(source) || InstantValues.isInstant(mapped.name()));
        final InputValue v = value.kind() == InputValue.Kind.STRING && (canonicalGauge || canonicalCounter)
            ? numberInString.apply(value.text()) : value;
        switch (v.kind()) {
            case UNSIGNED -> {
                final long raw = SampleJson.parseUnsigned(v.text(), source);
                if (gauge) {
                    gauge(name, source, unsignedToDouble(raw) * scale, fallback);
                } else {
                    counter(name, source, CounterValues.scale(raw, scale), raw, fallback);
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
                if (canonicalCounter) {
                    final long raw = integral(d, source);
                    counter(name, source, CounterValues.scale(raw, scale), raw, fallback);
                } else {
                    gauge(name, source, d * scale, fallback);
                }
            }
            case NON_FINITE -> throw new SampleFormatException(RejectReason.NOT_FINITE, noun + source + " is not finite: " + v.text());
            case INVALID -> throw new SampleFormatException(RejectReason.NON_NUMERIC, noun + source + " is not a number: '"
                + CounterValues.clip(v.text()) + "'");
            case BOOL -> {
                if (canonicalGauge) {
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
                } else if (canonicalGauge || canonicalCounter) {
                    throw new SampleFormatException(RejectReason.NON_NUMERIC, (canonicalGauge ? "gauge " : "counter ") + source
                        + " is not a number: '" + CounterValues.clip(v.text()) + "'");
                }
            }
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
        } else if (QueueDimension.isFolded(name) && counters.containsKey(name)) {
            counters.merge(name, value, Long::sum); // the queues beyond the bound add up
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
    public void finish() {
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

    public boolean isEmpty() {
        return counters.isEmpty() && gauges.isEmpty() && fallbacks.isEmpty();
    }

    public Map<String, Long> counters() {
        return counters;
    }

    public Map<String, Double> gauges() {
        return gauges;
    }

    private static double unsignedToDouble(final long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }

    /**
     * "UP", "up", "openconfig-interfaces:UP", "true", IOS-XR's "im-state-up" → up; DOWN, LOWER_LAYER_DOWN, NOT_PRESENT,
     * im-state-down, im-state-admin-down, ... → down.
     */
    private static boolean isUp(final String state) {
        final String s = withoutModule(state).toLowerCase(Locale.ROOT);
        return s.equals("up") || s.equals("true") || s.equals("im-state-up");
    }

    /** "SPEED_400GB" (OpenConfig), "100G" (SR Linux), "25Gbps" → bit/s; null when it names no speed. */
    private static Double speed(final String text) {
        final Matcher m = SPEED.matcher(withoutModule(text));
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

    /** Identities may carry a YANG module prefix ({@code openconfig-if-ethernet:SPEED_100GB}). */
    private static String withoutModule(final String text) {
        final String s = text.strip();
        return s.substring(s.lastIndexOf(':') + 1);
    }
}
