package dev.fabrictwin.twin.fabric;

/** Orders names with numbers as humans do: {@code leaf-2} before {@code leaf-10}. */
final class NaturalOrder {

    private NaturalOrder() {
    }

    public static int compare(final String a, final String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            final char ca = a.charAt(i);
            final char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int ei = i;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                int ej = j;
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                final int c = Long.compare(Long.parseLong(a.substring(i, Math.min(ei, i + 18))),
                    Long.parseLong(b.substring(j, Math.min(ej, j + 18))));
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
