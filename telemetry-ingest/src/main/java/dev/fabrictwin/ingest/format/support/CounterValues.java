package dev.fabrictwin.ingest.format.support;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;


/**
 * Parses counter and gauge values from the text formats, classifying bad values by {@link RejectReason}:
 * a sign is {@code NEGATIVE_COUNTER}, NaN/Inf is {@code NOT_FINITE}, anything else that is not a number (or
 * does not fit in 64 unsigned bits) is {@code NON_NUMERIC}. Counters are unsigned 64-bit values held in a
 * {@code long} (see {@link dev.fabrictwin.twin.telemetry.Sample}).
 */
public final class CounterValues {

    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger UINT64_MAX = TWO_TO_64.subtract(BigInteger.ONE);
    private static final BigDecimal UINT64_MAX_DEC = new BigDecimal(UINT64_MAX);
    private static final BigDecimal TWO_TO_64_DEC = new BigDecimal(TWO_TO_64);
    /** Longest numeric text we parse; real counters need at most 20 digits, floats with exponent a few more. */
    private static final int MAX_NUMBER_TEXT = 64;
    private static final Pattern DECIMAL_FLOAT = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");

    private CounterValues() {
    }

    /** True for the spellings of NaN and infinity that Prometheus, Go and Java print. */
    public static boolean isNonFinite(final String text) {
        final String s = text.trim().toLowerCase(Locale.ROOT);
        final String unsigned = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        return unsigned.equals("nan") || unsigned.equals("inf") || unsigned.equals("infinity");
    }

    /** A plain unsigned decimal integer, as ethtool, sysfs and SONiC print counters. */
    public static long parseUnsigned(final String text, final String name) throws SampleFormatException {
        final String s = text.trim();
        if (isNonFinite(s)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "counter " + name + " is not finite: " + clip(s));
        }
        if (s.startsWith("-") && s.length() > 1) {
            throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative: " + clip(s));
        }
        if (s.isEmpty() || s.length() > 20) {
            throw notNumber(name, s);
        }
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw notNumber(name, s);
            }
        }
        final BigInteger v = new BigInteger(s);
        if (v.compareTo(UINT64_MAX) > 0) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " exceeds 64 bits: " + s);
        }
        return v.longValue();
    }

    /**
     * A counter printed as a float (Prometheus text: {@code 1.260062e+06}), parsed exactly with BigDecimal so
     * values above 2^53 keep every digit the text has. It must be a non-negative integer value; a value that is
     * the float64 2^64 (Go prints it {@code 1.8446744073709552e+19}; it is how a counter near 2^64−1 comes out
     * of a float) is clamped to 2^64−1 rather than rejected or wrapped to 0.
     */
    public static long parseFloatCounter(final String text, final String name) throws SampleFormatException {
        final String s = text.trim();
        if (isNonFinite(s)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "counter " + name + " is not finite: " + clip(s));
        }
        if (s.length() > MAX_NUMBER_TEXT || !DECIMAL_FLOAT.matcher(s).matches()) {
            throw notNumber(name, s);
        }
        final BigDecimal v;
        try {
            v = new BigDecimal(s);
        } catch (NumberFormatException | ArithmeticException e) {
            throw notNumber(name, s);
        }
        if (v.signum() < 0) {
            throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative: " + clip(s));
        }
        if (v.compareTo(UINT64_MAX_DEC) > 0) {
            if (v.compareTo(TWO_TO_64_DEC.add(TWO_TO_64_DEC)) < 0 && v.doubleValue() == 0x1p64) {
                return -1L; // the float64 2^64 (printed 1.8446744073709552e+19) is how a counter near 2^64-1 prints
            }
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " exceeds 64 bits: " + clip(s));
        }
        if (v.signum() == 0) {
            return 0;
        }
        final BigDecimal stripped = v.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not an integer: " + clip(s));
        }
        return stripped.toBigIntegerExact().longValue();
    }

    /** A gauge: any finite decimal number. */
    public static double parseGauge(final String text, final String name) throws SampleFormatException {
        final String s = text.trim();
        if (isNonFinite(s)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "gauge " + name + " is not finite: " + clip(s));
        }
        if (s.length() > MAX_NUMBER_TEXT || !DECIMAL_FLOAT.matcher(s).matches()) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "gauge " + name + " is not a number: '" + clip(s) + "'");
        }
        final double d = Double.parseDouble(s);
        if (!Double.isFinite(d)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "gauge " + name + " is out of range: " + clip(s));
        }
        return d;
    }

    /**
     * Applies a mapping file's scale to an unsigned 64-bit counter. The product is taken modulo 2^64, so a
     * scaled counter wraps like a 64-bit counter of the scaled unit (e.g. 4-byte words × 4 → bytes).
     */
    public static long scale(final long unsignedValue, final long scale) {
        return unsignedValue * scale;
    }

    private static SampleFormatException notNumber(final String name, final String s) {
        return new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not an unsigned integer: '"
            + clip(s) + "'");
    }

    /** Shortens text for messages. */
    public static String clip(final String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
