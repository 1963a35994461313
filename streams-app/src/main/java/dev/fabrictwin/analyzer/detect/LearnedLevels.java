package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * What a quantity usually is, learned per key (a port, a port in one traffic regime, a device's queue band) from the
 * values its detector saw in healthy intervals: the last {@code ring} values per key, and quantiles of them. Robust
 * (a quantile ignores the few odd values a ring holds), adaptive (a slow drift is followed, a ring later), and bounded
 * by the fabric: {@code keys × (4 × ring + 4)} bytes, 4 more with a peak — at the default ring of 16, 68 or 72 B
 * per key. A key judges nothing until it has seen {@code warmUp} values ({@link #learned}). The caller decides what
 * is healthy: it feeds only values from intervals no alert covers ({@link TickContext#uncovered}) that were no
 * departure themselves.
 */
final class LearnedLevels implements Serializable {

    private final int ring;
    private final int warmUp;
    private final float[] values;
    /** Values seen per key (saturating well above the ring: only {@code min(seen, ring)} and the next slot matter). */
    private final int[] seen;
    /** Each key's highest healthy value, decaying by {@link #peakDecay} per value learned since (0 when none). */
    private final float[] peaks;
    private final float peakDecay;
    private transient float[] scratch;

    LearnedLevels(final int keys, final int ring, final int warmUp) {
        this(keys, ring, warmUp, Double.POSITIVE_INFINITY);
    }

    /** As above, also keeping each key's peak healthy value, halved after {@code peakHalfLife} values learned since. */
    LearnedLevels(final int keys, final int ring, final int warmUp, final double peakHalfLife) {
        if (keys < 0 || ring < 1 || warmUp < 1 || warmUp > ring || !(peakHalfLife > 0)) {
            throw new IllegalArgumentException("keys " + keys + ", ring " + ring + ", warm-up " + warmUp
                + ", peak half-life " + peakHalfLife);
        }
        this.ring = ring;
        this.warmUp = warmUp;
        this.values = new float[keys * ring];
        this.seen = new int[keys];
        this.peaks = Double.isInfinite(peakHalfLife) ? null : new float[keys];
        this.peakDecay = (float) Math.pow(0.5, 1 / peakHalfLife);
    }

    private LearnedLevels(final int ring, final int warmUp, final float[] values, final int[] seen, final float[] peaks,
                          final float peakDecay) {
        this.ring = ring;
        this.warmUp = warmUp;
        this.values = values;
        this.seen = seen;
        this.peaks = peaks;
        this.peakDecay = peakDecay;
    }

    int keys() {
        return seen.length;
    }

    /** Everything learned, for a checkpoint's learned section ({@link #read} takes it back). */
    void write(final DataOutput out) throws IOException {
        out.writeInt(seen.length);
        out.writeInt(ring);
        out.writeInt(warmUp);
        out.writeFloat(peakDecay);
        out.writeBoolean(peaks != null);
        for (final float v : values) {
            out.writeFloat(v);
        }
        for (final int n : seen) {
            out.writeInt(n);
        }
        if (peaks != null) {
            for (final float v : peaks) {
                out.writeFloat(v);
            }
        }
    }

    /** {@link #write}, or that there is none yet (a detector that has not seen its first tick). */
    static void writeOrNone(final LearnedLevels levels, final DataOutput out) throws IOException {
        out.writeBoolean(levels != null);
        if (levels != null) {
            levels.write(out);
        }
    }

    /** What {@link #writeOrNone} wrote: the levels, or null. */
    static LearnedLevels readOrNone(final DataInput in) throws IOException {
        return in.readBoolean() ? read(in) : null;
    }

    static LearnedLevels read(final DataInput in) throws IOException {
        final int keys = in.readInt();
        final int ring = in.readInt();
        final int warmUp = in.readInt();
        final float peakDecay = in.readFloat();
        final boolean withPeaks = in.readBoolean();
        if (keys < 0 || ring < 1 || warmUp < 1 || warmUp > ring || (long) keys * ring > Integer.MAX_VALUE) {
            throw new IOException("learned levels of " + keys + " keys, ring " + ring + ", warm-up " + warmUp);
        }
        final float[] values = new float[keys * ring];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readFloat();
        }
        final int[] seen = new int[keys];
        for (int i = 0; i < keys; i++) {
            seen[i] = in.readInt();
        }
        float[] peaks = null;
        if (withPeaks) {
            peaks = new float[keys];
            for (int i = 0; i < keys; i++) {
                peaks[i] = in.readFloat();
            }
        }
        return new LearnedLevels(ring, warmUp, values, seen, peaks, peakDecay);
    }

    /** Remembers one healthy value of {@code key} (NaN and infinities are ignored). */
    void learn(final int key, final double value) {
        if (!Double.isFinite(value)) {
            return;
        }
        final int s = seen[key];
        values[key * ring + s % ring] = (float) value;
        if (peaks != null) {
            peaks[key] = Math.max((float) value, peaks[key] * peakDecay);
        }
        seen[key] = s >= 1 << 30 ? ring + (s + 1) % ring : s + 1;
    }

    /** Whether {@code key} has seen enough healthy values to judge. */
    boolean learned(final int key) {
        return seen[key] >= warmUp;
    }

    /** Healthy values kept for {@code key}. */
    int count(final int key) {
        return Math.min(seen[key], ring);
    }

    /** The smallest healthy value kept (NaN when none). */
    double lowest(final int key) {
        final int n = count(key);
        if (n == 0) {
            return Double.NaN;
        }
        float low = Float.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            low = Math.min(low, values[key * ring + i]);
        }
        return low;
    }

    /** The {@code q} quantile (0..1, nearest rank) of the healthy values kept (NaN when none). */
    double quantile(final int key, final double q) {
        return quantile(key, q, ring);
    }

    /** The {@code q} quantile (0..1, nearest rank) of the last {@code last} healthy values kept (NaN when none). */
    double quantile(final int key, final double q, final int last) {
        final int n = Math.min(count(key), Math.max(0, last));
        if (n == 0) {
            return Double.NaN;
        }
        if (scratch == null) {
            scratch = new float[ring];
        }
        for (int i = 0; i < n; i++) {
            scratch[i] = values[key * ring + Math.floorMod(seen[key] - 1 - i, ring)];
        }
        Arrays.sort(scratch, 0, n);
        return scratch[(int) Math.round(Math.max(0, Math.min(1, q)) * (n - 1))];
    }

    /**
     * The highest healthy value of {@code key}, fading by half every half-life of values learned since (NaN when none
     * or not kept): a level the key showed while healthy — a bursty phase of its traffic the last 16 values do not
     * hold — is no departure when it comes back.
     */
    double peak(final int key) {
        return peaks == null || seen[key] == 0 ? Double.NaN : peaks[key];
    }

    /** Forgets what {@code key} learned (its meaning changed, e.g. the link came back after a repair). */
    void forget(final int key) {
        seen[key] = 0;
        if (peaks != null) {
            peaks[key] = 0;
        }
    }
}
