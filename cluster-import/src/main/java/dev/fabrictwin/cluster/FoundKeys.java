package dev.fabrictwin.cluster;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The keys an unrecognized JSON object holds, for a one-line error about it: the first few, each printable (a
 * newline, tab or other control character in a key is escaped, a long key cut), so any input gives one short line.
 */
public final class FoundKeys {

    /** Longest key shown whole. */
    static final int MAX_KEY_LENGTH = 60;

    private FoundKeys() {
    }

    /** The first {@code max} keys of {@code node} (none if it is no object), then "..." if it has more. */
    public static String of(final JsonNode node, final int max) {
        final List<String> keys = new ArrayList<>();
        if (node != null) {
            final Iterator<String> names = node.fieldNames();
            while (names.hasNext() && keys.size() <= max) {
                keys.add(printable(names.next()));
            }
        }
        return keys.size() > max ? keys.subList(0, max) + "..." : keys.toString();
    }

    /** {@code s} on one line: control characters escaped ({@code \n}, {@code \t}, {@code \}{@code u001b}), cut past {@value #MAX_KEY_LENGTH}. */
    public static String printable(final String s) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && i < MAX_KEY_LENGTH; i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || Character.getType(c) == Character.LINE_SEPARATOR
                        || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return s.length() > MAX_KEY_LENGTH ? b + "..." : b.toString();
    }
}
