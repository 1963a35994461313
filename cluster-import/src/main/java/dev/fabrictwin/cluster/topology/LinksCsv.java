package dev.fabrictwin.cluster.topology;

import java.util.Locale;

import dev.fabrictwin.twin.units.Units;

/**
 * A plain links file, one cable per line: {@code a_device,a_port,b_device,b_port[,speed]} ({@code 400G} or bit/s).
 * A first line starting with {@code a_device} is a header; {@code #} starts a comment. A cabling plan speaks for both
 * ends, so each line is a link seen from both.
 */
public final class LinksCsv {

    private LinksCsv() {
    }

    public static Observations read(final String text) {
        final Observations out = new Observations();
        int n = 0;
        for (final String raw : text.split("\\R")) {
            n++;
            final String line = raw.replaceFirst("#.*$", "").strip();
            if (line.isEmpty() || n == 1 && line.toLowerCase(Locale.ROOT).startsWith("a_device")) {
                continue;
            }
            final String[] f = line.split("\\s*,\\s*");
            if (f.length < 4 || f.length > 5) {
                throw new IllegalArgumentException("line " + n + ": expected a_device,a_port,b_device,b_port[,speed]: " + raw);
            }
            final double speed;
            try {
                speed = f.length == 5 ? Units.parseBitRate(f[4]) : Double.NaN;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + n + ": " + e.getMessage(), e);
            }
            out.add(new Neighbor(f[0], f[1], f[2], f[3], speed));
            out.add(new Neighbor(f[2], f[3], f[0], f[1], speed));
        }
        return out;
    }
}
