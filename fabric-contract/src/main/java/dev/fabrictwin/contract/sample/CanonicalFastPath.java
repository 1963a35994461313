package dev.fabrictwin.contract.sample;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.fabrictwin.twin.telemetry.FrozenMap;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A fast path for the exact shape {@link SampleJson#write} produces: one flat object, no whitespace, no
 * string escapes, integer counters, plain decimal gauges. It returns {@code null} at the first thing it does
 * not expect (a repeated key and a name longer than {@link SampleNames#MAX_LENGTH} bytes included), and the
 * caller then parses with Jackson, which gives the same sample or the precise rejection reason. It never rejects
 * anything itself, so it cannot change what is accepted (a property test compares the two on random and mutated
 * input). Why it exists: Jackson's tokenizer alone tops out near the ingest
 * target on this 2-core class of machine (docs/ingest.md has the figures).
 */
final class CanonicalFastPath {

    private static final double[] POW10 = new double[23];
    private static final NameCache NAMES = new NameCache(1024);
    /**
     * Device, port and source names recur too (a fabric's devices and their ports): one String each means one hash
     * computed, not one per sample in every map the rates stage and the analysis look them up in. Sized for a
     * 32k-GPU fabric's few thousand devices; a miss costs what decoding a fresh String did.
     */
    private static final NameCache TEXTS = new NameCache(8192);

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private final byte[] b;
    private final int end;
    private int i;

    private CanonicalFastPath(final byte[] b, final int off, final int len) {
        this.b = b;
        this.i = off;
        this.end = off + len;
    }

    /** The sample, or null if this input needs the full parser. */
    static Sample tryParse(final byte[] bytes, final int off, final int len) {
        try {
            return new CanonicalFastPath(bytes, off, len).sample();
        } catch (RuntimeException e) {
            return null; // anything unexpected: let Jackson decide
        }
    }

    private Sample sample() {
        if (!take('{')) {
            return null;
        }
        long ts = -1;
        String device = null;
        String port = null;
        String source = null;
        FrozenMap<Long> counters = null;
        FrozenMap<Double> gauges = null;
        boolean first = true;
        while (true) {
            if (take('}')) {
                break;
            }
            if (!first && !take(',')) {
                return null;
            }
            first = false;
            final int nameStart = i + 1;
            final int nameEnd = string();
            if (nameEnd < 0 || !take(':')) {
                return null;
            }
            // a field seen before (a repeated key) goes to Jackson, which keeps the first and reports the repeat
            switch (b[nameStart]) {
                case 't' -> {
                    if (!is(nameStart, nameEnd, "ts") || ts != -1) {
                        return null;
                    }
                    ts = integer();
                }
                case 'd' -> {
                    if (!is(nameStart, nameEnd, "device") || device != null) {
                        return null;
                    }
                    device = text();
                }
                case 'p' -> {
                    if (!is(nameStart, nameEnd, "port") || port != null) {
                        return null;
                    }
                    port = text();
                }
                case 's' -> {
                    if (!is(nameStart, nameEnd, "source") || source != null) {
                        return null;
                    }
                    source = text();
                }
                case 'c' -> {
                    if (!is(nameStart, nameEnd, "counters") || counters != null || (counters = counters()) == null) {
                        return null;
                    }
                }
                case 'g' -> {
                    if (!is(nameStart, nameEnd, "gauges") || gauges != null || (gauges = gauges()) == null) {
                        return null;
                    }
                }
                default -> {
                    return null;
                }
            }
        }
        if (i != end || ts <= 0 || device == null || device.isBlank() || port == null || port.isBlank()
            || counters == null || gauges == null) {
            return null;
        }
        return new Sample(ts, device, port, source == null ? "" : source, counters, gauges);
    }

    private FrozenMap<Long> counters() {
        return object(24, () -> {
            final long v = integer();
            return v < 0 ? null : v;
        });
    }

    private FrozenMap<Double> gauges() {
        return object(8, this::decimal);
    }

    /** One value at the cursor, or null for input this path leaves to Jackson. */
    @FunctionalInterface
    private interface Value<V> {
        V read();
    }

    /** A {@code {"name": value, ...}} object; null for anything this path leaves to Jackson, a repeated key included. */
    private <V> FrozenMap<V> object(final int capacity, final Value<V> value) {
        if (!take('{')) {
            return null;
        }
        final FrozenMap.Builder<V> out = new FrozenMap.Builder<>(capacity);
        if (take('}')) {
            return out.build();
        }
        do {
            final String name = name();
            if (name == null || !take(':')) {
                return null;
            }
            final V v = value.read();
            if (v == null || !out.putNew(name, v)) {
                return null; // a repeated key: Jackson keeps the first and reports it
            }
        } while (take(','));
        return take('}') ? out.build() : null;
    }

    /** A non-negative integer up to Long.MAX_VALUE (no sign, no leading zero); larger ones go to Jackson. */
    private long integer() {
        final int start = i;
        long v = 0;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            final int d = b[i++] - '0';
            if (v > (Long.MAX_VALUE - d) / 10) {
                throw new IllegalStateException(); // beyond a signed long: unsigned 64-bit, rare
            }
            v = v * 10 + d;
        }
        final int digits = i - start;
        if (digits == 0 || (digits > 1 && b[start] == '0')) {
            throw new IllegalStateException();
        }
        return v;
    }

    /** -?int(.frac)? with at most 15 significant digits: exact as mantissa / 10^k (both exact doubles). */
    private double decimal() {
        final boolean negative = take('-');
        long mantissa = 0;
        int digits = 0;
        int fraction = 0;
        final int start = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            mantissa = mantissa * 10 + (b[i++] - '0');
            digits++;
        }
        if (digits == 0 || (digits > 1 && b[start] == '0')) {
            throw new IllegalStateException();
        }
        if (take('.')) {
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                mantissa = mantissa * 10 + (b[i++] - '0');
                digits++;
                fraction++;
            }
            if (fraction == 0) {
                throw new IllegalStateException();
            }
        }
        if (digits > 15 || fraction >= POW10.length || (i < end && (b[i] == 'e' || b[i] == 'E'))) {
            throw new IllegalStateException();
        }
        final double v = mantissa / POW10[fraction];
        return negative && v != 0 ? -v : v; // -0 is 0, as the writer prints it and Jackson reads "-0"
    }

    /** Skips a string without escapes; returns the index of its closing quote, or -1. */
    private int string() {
        if (!take('"')) {
            return -1;
        }
        while (i < end) {
            final byte c = b[i];
            if (c == '"') {
                return i++;
            }
            if (c == '\\' || (c >= 0 && c < 0x20)) {
                return -1;
            }
            i++;
        }
        return -1;
    }

    private String text() {
        final int start = i + 1;
        final int close = string();
        if (close < 0 || close - start > SampleNames.MAX_LENGTH) {
            throw new IllegalStateException(); // a long one may still be short in characters: Jackson decides
        }
        return TEXTS.get(b, start, close - start);
    }

    /** A counter or gauge name; null (to Jackson) past {@link SampleNames#MAX_LENGTH} bytes, which the cache never holds. */
    private String name() {
        final int start = i + 1;
        final int close = string();
        return close < 0 || close - start > SampleNames.MAX_LENGTH ? null : NAMES.get(b, start, close - start);
    }

    private boolean take(final char c) {
        if (i < end && b[i] == c) {
            i++;
            return true;
        }
        return false;
    }

    private boolean is(final int start, final int close, final String word) {
        if (close - start != word.length()) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if (b[start + k] != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Counter and gauge names recur in every sample: keep one String per name instead of one per sample. */
    private static final class NameCache {
        /** One immutable entry per slot, replaced whole: threads see an old or a new pair, never a torn one. */
        private final Entry[] entries;

        /** {@code size}: a power of two. */
        NameCache(final int size) {
            entries = new Entry[size];
        }

        private record Entry(byte[] bytes, String name) {
        }

        String get(final byte[] b, final int off, final int len) {
            int h = len;
            for (int k = 0; k < len; k++) {
                h = 31 * h + b[off + k];
            }
            final int slot = (h ^ (h >>> 16)) & (entries.length - 1);
            final Entry cached = entries[slot];
            if (cached != null && Arrays.equals(cached.bytes, 0, cached.bytes.length, b, off, off + len)) {
                return cached.name;
            }
            // interned: a name a constant spells (CounterNames.TX_BYTES) is then that constant, and a sample's map
            // finds it by identity (FrozenMap#get); a miss is once per name and slot, not per sample
            final String fresh = new String(b, off, len, StandardCharsets.UTF_8).intern();
            entries[slot] = new Entry(Arrays.copyOfRange(b, off, off + len), fresh);
            return fresh;
        }
    }
}
