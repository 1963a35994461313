package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A level per key and hour of day (event time, UTC: a rhythm repeats every 24 hours in any time zone), learned from
 * the telemetry as the hours are seen: what a quantity usually is at this time of day, for keys whose level swings
 * with the day. A key learns in visits — its healthy values within one clock hour — and a visit's level (the highest
 * its caller reports) becomes the hour of day's when the key's next value falls in another hour: at once when higher,
 * {@code decline} of the way per visit when lower. Levels are kept in 1/10,000 of the unit (a share of line rate) in
 * 16 bits, so the cost is {@code keys × (24 × 2 + 16)} bytes: 64 B per key.
 */
final class DailyRhythm implements Serializable {

    static final int HOURS = 24;
    private static final long HOUR_MS = 3_600_000L;
    private static final double UNIT = 1e-4;
    /** An hour of day the key has not been seen in. */
    private static final char NONE = Character.MAX_VALUE;
    private static final double MAX_LEVEL = (NONE - 1) * UNIT;

    /** By {@code 24 × key + hour of day}. */
    private final char[] levels;
    /** Per key, the clock hour (since the epoch) of its visit in progress, -1 when none. */
    private final long[] visitHour;
    /** Per key, the highest level of its visit in progress. */
    private final float[] visitLevel;
    /** Per key, the values learned in its visit in progress. */
    private final int[] visitValues;

    DailyRhythm(final int keys) {
        this(new char[HOURS * keys]);
        Arrays.fill(levels, NONE);
    }

    private DailyRhythm(final char[] levels) {
        this.levels = levels;
        this.visitHour = new long[levels.length / HOURS];
        this.visitLevel = new float[levels.length / HOURS];
        this.visitValues = new int[levels.length / HOURS];
        Arrays.fill(visitHour, -1);
    }

    int keys() {
        return visitHour.length;
    }

    /** The hours of day's levels, for a checkpoint's learned section (a visit in progress is learned again). */
    void write(final DataOutput out) throws IOException {
        out.writeInt(keys());
        for (final char c : levels) {
            out.writeChar(c);
        }
    }

    static DailyRhythm read(final DataInput in) throws IOException {
        final int keys = in.readInt();
        if (keys < 0 || keys > Integer.MAX_VALUE / HOURS) {
            throw new IOException("a daily rhythm of " + keys + " keys");
        }
        final char[] levels = new char[HOURS * keys];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = in.readChar();
        }
        return new DailyRhythm(levels);
    }

    /** The values {@code key} learned so far in the clock hour of {@code endMs} (0 when it is not its visit's). */
    int visitValues(final int key, final long endMs) {
        return visitHour[key] == hour(endMs) ? visitValues[key] : 0;
    }

    /** The clock hour (since the epoch) of a span ending at {@code endMs}: that of its last instant. */
    private static long hour(final long endMs) {
        return Math.floorDiv(endMs - 1, HOUR_MS);
    }

    /**
     * The visit of {@code key} whose healthy value ended at {@code endMs} reached {@code level}; a value in another
     * clock hour first closes the key's visit in progress into its hour of day.
     */
    void learn(final int key, final long endMs, final double level, final double decline) {
        final long hour = hour(endMs);
        if (visitHour[key] != hour) {
            close(key, decline);
            visitHour[key] = hour;
            visitLevel[key] = Float.NEGATIVE_INFINITY;
            visitValues[key] = 0;
        }
        visitValues[key]++;
        visitLevel[key] = Math.max(visitLevel[key], (float) level);
    }

    private void close(final int key, final double decline) {
        if (visitHour[key] < 0 || !Float.isFinite(visitLevel[key])) {
            return;
        }
        final int i = HOURS * key + (int) Math.floorMod(visitHour[key], HOURS);
        final double seen = Math.max(0, Math.min(MAX_LEVEL, visitLevel[key]));
        final double old = levels[i] == NONE ? seen : levels[i] * UNIT;
        levels[i] = (char) Math.round((seen >= old ? seen : old - decline * (old - seen)) / UNIT);
    }

    /**
     * Whether the key's hours of day seen so far span at least {@code swing}: below it the key has no rhythm worth
     * judging by.
     */
    boolean rhythmic(final int key, final double swing) {
        int low = NONE;
        int high = -1;
        for (int h = 0; h < HOURS; h++) {
            final char c = levels[HOURS * key + h];
            if (c != NONE) {
                low = Math.min(low, c);
                high = Math.max(high, c);
            }
        }
        return high >= 0 && (high - low) * UNIT >= swing - UNIT / 2;
    }

    /**
     * The highest level of the hours of day within {@code slackMs} of {@code endMs}; an hour not seen yet takes the
     * key's highest hour (its all-day level: what the analysis saw healthy at some time of day). NaN when no hour is
     * seen.
     */
    double level(final int key, final long endMs, final long slackMs) {
        double allDay = Double.NaN;
        for (int h = 0; h < HOURS; h++) {
            final char c = levels[HOURS * key + h];
            if (c != NONE && !(c * UNIT <= allDay)) {
                allDay = c * UNIT;
            }
        }
        double level = Double.NaN;
        // the hours meeting [end - slack, end + slack), and always the window's own
        final long first = Math.min(Math.floorDiv(endMs - slackMs, HOUR_MS), hour(endMs));
        final long last = Math.min(Math.max(Math.floorDiv(endMs + slackMs - 1, HOUR_MS), hour(endMs)), first + HOURS - 1);
        for (long hour = first; hour <= last; hour++) {
            final char c = levels[HOURS * key + (int) Math.floorMod(hour, HOURS)];
            final double l = c == NONE ? allDay : c * UNIT;
            if (!(l <= level)) {
                level = l;
            }
        }
        return level;
    }
}
