package dev.fabrictwin.twin.fabric;

/**
 * User text as an error message shows it: quoted, on one line (control characters escaped) and at most
 * {@value #MAX_CHARS} characters, so a hostile value cannot break the one-line error contract or flood a log.
 */
public final class Quoted {
    static final int MAX_CHARS = 80;

    private Quoted() {
    }

    /** {@code 'text'} with {@code \n}, {@code \t}, {@code \r} and other control characters escaped. */
    public static String of(final String text) {
        if (text == null) {
            return "null";
        }
        final StringBuilder b = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 8).append('\'');
        for (int i = 0; i < text.length(); i++) {
            if (i == MAX_CHARS) {
                return b.append("…' (").append(text.length()).append(" chars)").toString();
            }
            final char c = text.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('\'').toString();
    }

    /** Refuses a name with control characters: names end up in alert keys, metric labels and log lines. */
    public static String requirePrintable(final String name, final String what) {
        for (int i = 0; i < name.length(); i++) {
            final char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw new IllegalArgumentException(what + " must not contain control characters, was " + of(name));
            }
        }
        return name;
    }
}
