package dev.fabrictwin.twin.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Fuzz inputs made from real ones: a seed (a fixture from the repository) changed by one to four edits of the
 * kinds broken collectors, cut files and hostile senders produce — byte flips, truncations, deletions, splices
 * with another seed, duplicated fragments (repeated lines become duplicated samples), numbers replaced by
 * {@link #HOSTILE_NUMBERS}, hostile tokens and deep nesting. Positions are drawn as fractions of the input, so
 * one edit fits any seed and jqwik can shrink it.
 */
public final class Mutants {

    /** Numbers that break naive handling: non-finite, past long and double, -0, 2^63, years 1970 and 3000. */
    public static final List<String> HOSTILE_NUMBERS = List.of("NaN", "-NaN", "Infinity", "-Infinity", "+Inf", "-Inf",
        "1e308", "1e309", "-1e309", "4.9e-324", "-0", "-0.0", "0x1F", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999999999999999999999", "-1", "1.5", "0", "1", "00017", "1e-7", "1_000",
        "32503680000000", "32503680000", "32503680000000000000", "-32503680000000");

    /** Short strings that break naive tokenizers of the JSON, YAML and text formats. */
    public static final List<String> HOSTILE_TOKENS = List.of("", "\u0000", "\ufffd", "é", "\uD83D\uDE00", "\"", "\\",
        "{", "}", "[", "]", ":", ",", "=", "\n", "\r\n", "\t", " ", "null", "true", "#", "\"\":", "{\"a\":", "- ", "? ",
        "&a ", "*a", "!!binary ", "---\n", "|", ">", "  ", "//", "\u2028", "%", "'");

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    private static final int SCALE = 10_000;

    private enum Kind { FLIP, TRUNCATE, DELETE, DUPLICATE, SPLICE, NUMBER, TOKEN, NEST }

    /** One edit; {@code at}, {@code to} are positions as fractions of {@link #SCALE}, {@code pick} chooses among options. */
    private record Edit(Kind kind, int at, int to, int pick) {
    }

    private Mutants() {
    }

    /** Seeds changed by one to four edits (the seeds themselves come up too, unchanged, as jqwik's edge case). */
    public static Arbitrary<byte[]> of(final List<byte[]> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seeds to mutate");
        }
        final Arbitrary<Edit> edit = Combinators.combine(Arbitraries.of(Kind.class), position(), position(),
            Arbitraries.integers().between(0, 1_000)).as(Edit::new);
        return Combinators.combine(Arbitraries.integers().between(0, seeds.size() - 1),
                Arbitraries.integers().between(0, seeds.size() - 1), edit.list().ofMinSize(1).ofMaxSize(4))
            .as((first, second, edits) -> apply(seeds.get(first), seeds.get(second), edits));
    }

    /** As {@link #of}, decoded as UTF-8 (invalid bytes become U+FFFD), for readers that take text. */
    public static Arbitrary<String> text(final List<String> seeds) {
        return of(seeds.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList())
            .map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /** {@code open} repeated {@code depth} times: {@code nested("[", 100_000)} is a stack-overflow probe. */
    public static String nested(final String open, final int depth) {
        return open.repeat(depth);
    }

    /** One line of {@code bytes} bytes, {@code unit} repeated, to probe size limits without a newline to stop at. */
    public static byte[] longLine(final String unit, final int bytes) {
        final byte[] u = unit.getBytes(StandardCharsets.UTF_8);
        final byte[] line = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            line[i] = u[i % u.length];
        }
        return line;
    }

    private static Arbitrary<Integer> position() {
        return Arbitraries.integers().between(0, SCALE);
    }

    private static byte[] apply(final byte[] seed, final byte[] other, final List<Edit> edits) {
        byte[] b = seed;
        for (final Edit e : edits) {
            b = apply(b, other, e);
        }
        return b;
    }

    private static byte[] apply(final byte[] b, final byte[] other, final Edit e) {
        final int at = scaled(e.at(), b.length);
        final int to = Math.min(b.length, at + scaled(e.to(), Math.min(b.length - at, 4_096)));
        return switch (e.kind()) {
            case FLIP -> flip(b, at, e.pick());
            case TRUNCATE -> Arrays.copyOf(b, at);
            case DELETE -> splice(b, at, to, new byte[0]);
            case DUPLICATE -> splice(b, at, at, Arrays.copyOfRange(b, at, to));
            case SPLICE -> concat(Arrays.copyOf(b, at), Arrays.copyOfRange(other, scaled(e.to(), other.length), other.length));
            case NUMBER -> replaceNumber(b, e.pick());
            case TOKEN -> splice(b, at, at, utf8(HOSTILE_TOKENS.get(e.pick() % HOSTILE_TOKENS.size())));
            case NEST -> splice(b, at, at, utf8(nested(e.pick() % 2 == 0 ? "[" : "{\"a\":", 1 + e.pick() * 5)));
        };
    }

    private static byte[] flip(final byte[] b, final int at, final int pick) {
        if (b.length == 0) {
            return b;
        }
        final byte[] out = b.clone();
        out[Math.min(at, b.length - 1)] ^= (byte) (1 + pick % 255);
        return out;
    }

    /** Replaces the {@code pick}-th number (cyclically) with a hostile one; Latin-1 keeps every byte as it was. */
    private static byte[] replaceNumber(final byte[] b, final int pick) {
        final String s = new String(b, StandardCharsets.ISO_8859_1);
        final List<int[]> spans = new ArrayList<>();
        final Matcher m = NUMBER.matcher(s);
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        if (spans.isEmpty()) {
            return b;
        }
        final int[] span = spans.get(pick % spans.size());
        return splice(b, span[0], span[1], utf8(HOSTILE_NUMBERS.get(pick % HOSTILE_NUMBERS.size())));
    }

    private static int scaled(final int fraction, final int length) {
        return (int) ((long) fraction * length / SCALE);
    }

    private static byte[] splice(final byte[] b, final int from, final int to, final byte[] insert) {
        return concat(concat(Arrays.copyOf(b, from), insert), Arrays.copyOfRange(b, to, b.length));
    }

    private static byte[] concat(final byte[] a, final byte[] c) {
        final byte[] out = Arrays.copyOf(a, a.length + c.length);
        System.arraycopy(c, 0, out, a.length, c.length);
        return out;
    }

    private static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
