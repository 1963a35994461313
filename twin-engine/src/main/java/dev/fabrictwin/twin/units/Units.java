package dev.fabrictwin.twin.units;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Parses the units that scenario files and the CLI use (docs/contracts.md): durations ({@code ms s m h}),
 * byte sizes (decimal {@code KB MB GB TB} = 10^3.., binary {@code KiB MiB GiB TiB} = 2^10..) and link
 * speeds ({@code 100G} = 100×10^9 bit/s, also {@code M}, {@code T}, optional {@code bps}).
 *
 * <p>Every parse error is an {@link IllegalArgumentException} whose message is one line that names the
 * bad text and the accepted forms, so callers can show it to a user as is.
 */
public final class Units {

    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");

    private Units() {
    }

    /** {@code 250ms}, {@code 1s}, {@code 1.5s}, {@code 5m}, {@code 2h}; a bare number is seconds. */
    public static Duration parseDuration(final String text) {
        final Matcher m = match(text, "duration", "250ms, 1s, 5m, 2h");
        final double value = Double.parseDouble(m.group(1));
        final double millis = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> value;
            case "", "s" -> value * 1_000;
            case "m", "min" -> value * 60_000;
            case "h" -> value * 3_600_000;
            default -> throw bad(text, "duration", "250ms, 1s, 5m, 2h");
        };
        return Duration.ofMillis(Math.round(millis));
    }

    /** {@code 8GB} = 8×10^9, {@code 1GiB} = 2^30, {@code 512KB}, {@code 100B}; a bare number is bytes. */
    public static long parseBytes(final String text) {
        final Matcher m = match(text, "byte size", "100B, 64KB, 8GB, 1GiB");
        final double value = Double.parseDouble(m.group(1));
        final double factor = switch (m.group(2)) {
            case "", "B" -> 1;
            case "KB", "kB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            case "KiB" -> 1L << 10;
            case "MiB" -> 1L << 20;
            case "GiB" -> 1L << 30;
            case "TiB" -> 1L << 40;
            default -> throw bad(text, "byte size", "100B, 64KB, 8GB, 1GiB");
        };
        return Math.round(value * factor);
    }

    /** {@code 400G} = 400×10^9 bit/s; also {@code 25Gbps}, {@code 800M}, {@code 1.6T}. Returns bit/s. */
    public static double parseBitRate(final String text) {
        final Matcher m = match(text, "link speed", "100G, 400G, 25Gbps, 1.6T");
        final double value = Double.parseDouble(m.group(1));
        final String unit = m.group(2).toLowerCase(Locale.ROOT).replaceFirst("(bps|b/s)$", "");
        final double factor = switch (unit) {
            case "" -> 1;
            case "k" -> 1e3;
            case "m" -> 1e6;
            case "g" -> 1e9;
            case "t" -> 1e12;
            default -> throw bad(text, "link speed", "100G, 400G, 25Gbps, 1.6T");
        };
        final double bps = value * factor;
        if (bps <= 0) {
            throw bad(text, "link speed", "a positive rate such as 400G");
        }
        return bps;
    }

    /** Short human form of a bit rate: {@code 400G}, {@code 2.5G}, {@code 800M}. */
    public static String formatBitRate(final double bps) {
        if (bps >= 1e12 && bps % 1e12 == 0) {
            return (long) (bps / 1e12) + "T";
        }
        if (bps >= 1e9) {
            return trim(bps / 1e9) + "G";
        }
        if (bps >= 1e6) {
            return trim(bps / 1e6) + "M";
        }
        return trim(bps);
    }

    private static String trim(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v)
            : BigDecimal.valueOf(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static Matcher match(final String text, final String what, final String examples) {
        if (text == null) {
            throw new IllegalArgumentException("missing " + what + " (examples: " + examples + ")");
        }
        final Matcher m = NUMBER_UNIT.matcher(text);
        if (!m.matches()) {
            throw bad(text, what, examples);
        }
        return m;
    }

    private static IllegalArgumentException bad(final String text, final String what, final String examples) {
        return new IllegalArgumentException("invalid " + what + " " + shown(text) + " (examples: " + examples + ")");
    }

    /** The text quoted on one line, control characters escaped and cut at 80: an error stays one line. */
    private static String shown(final String text) {
        final String cut = text.length() > 80 ? text.substring(0, 80) + "…" : text;
        return cut.chars().mapToObj(c -> Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
                ? String.format("\\u%04x", c) : String.valueOf((char) c))
            .collect(Collectors.joining("", "'", "'"));
    }
}
