package dev.fabrictwin.cluster.jobs;

import java.util.ArrayList;
import java.util.List;

/**
 * SLURM host lists: {@code gpu[001-064,070]}, {@code rack[1-2]-gpu[01-02]}, {@code a[1-2],b3}. Ranges keep their zero
 * padding ({@code [001-003]} → 001, 002, 003); several bracket groups multiply out in order. Malformed lists are
 * refused naming them, never half-expanded.
 */
public final class HostList {

    /** A list may not expand to more hosts than this (a typo such as {@code [1-99999999]}). */
    static final int MAX_HOSTS = 1_000_000;

    private HostList() {
    }

    public static List<String> expand(final String list) {
        final String text = list == null ? "" : list.strip();
        if (text.isEmpty() || text.equals("(null)") || text.equals("None assigned")) {
            return List.of();
        }
        final List<String> hosts = new ArrayList<>();
        for (final String item : splitTopLevel(text)) {
            hosts.addAll(expandOne(item, text));
        }
        return hosts;
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitTopLevel(final String text) {
        final List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(text.substring(start, i));
                start = i + 1;
            }
            if (depth < 0 || depth > 1) {
                throw bad(text, "unbalanced brackets");
            }
        }
        if (depth != 0) {
            throw bad(text, "unbalanced brackets");
        }
        items.add(text.substring(start));
        return items;
    }

    private static List<String> expandOne(final String item, final String whole) {
        if (item.isBlank()) {
            throw bad(whole, "an empty name");
        }
        final int open = item.indexOf('[');
        if (open < 0) {
            return List.of(item.strip());
        }
        final int close = item.indexOf(']', open);
        final String prefix = item.substring(0, open);
        final List<String> rest = close + 1 < item.length() ? expandOne(item.substring(close + 1), whole) : List.of("");
        final List<String> out = new ArrayList<>();
        for (final String range : item.substring(open + 1, close).split(",")) {
            for (final String value : range(range.strip(), whole)) {
                for (final String tail : rest) {
                    out.add(prefix + value + tail);
                    if (out.size() > MAX_HOSTS) {
                        throw bad(whole, "more than " + MAX_HOSTS + " hosts");
                    }
                }
            }
        }
        return out;
    }

    private static List<String> range(final String range, final String whole) {
        final String[] ends = range.split("-", -1);
        if (ends.length > 2 || ends[0].isEmpty() || !ends[0].chars().allMatch(Character::isDigit)
            || ends.length == 2 && (ends[1].isEmpty() || !ends[1].chars().allMatch(Character::isDigit))) {
            throw bad(whole, "'" + range + "' is not a number or a range like 01-16");
        }
        final long from = Long.parseLong(ends[0]);
        final long to = ends.length == 2 ? Long.parseLong(ends[1]) : from;
        if (to < from || to - from >= MAX_HOSTS) {
            throw bad(whole, "range '" + range + "' runs backwards or is too long");
        }
        final int width = ends[0].length();
        final List<String> out = new ArrayList<>();
        for (long n = from; n <= to; n++) {
            out.add(String.format("%0" + width + "d", n));
        }
        return out;
    }

    private static IllegalArgumentException bad(final String list, final String why) {
        return new IllegalArgumentException("host list '" + list + "': " + why);
    }
}
