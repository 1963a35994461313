package dev.fabrictwin.ingest.format.support;

/** List-key values (port names, queue numbers) as devices send them. */
public final class ListKeys {

    private static final String QUOTES = "\"'\\";

    private ListKeys() {
    }

    /**
     * Ciena quotes its list keys inside the value ({@code "1"}, and Telegraf's escaped {@code \"1\"}): quotes and
     * backslashes around a key are no part of the name, which no interface or queue name starts or ends with.
     */
    public static String unquote(final String key) {
        final String s = key.strip();
        int from = 0;
        int to = s.length();
        while (from < to && QUOTES.indexOf(s.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && QUOTES.indexOf(s.charAt(to - 1)) >= 0) {
            to--;
        }
        return from == 0 && to == s.length() ? s : s.substring(from, to).strip();
    }
}
