package dev.fabrictwin.ingest.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.fabrictwin.contract.sample.RejectReason;


/**
 * Reads newline-terminated lines as raw bytes (no charset decoding on the hot path), bounding memory: a line
 * longer than the limit is returned truncated and flagged, and the rest of it is skipped.
 */
public final class LineReader {

    /** One line: its bytes (without the newline), 1-based number, and whether it was cut at the limit. */
    public record Line(byte[] bytes, long number, boolean truncated) {
        public boolean blank() {
            for (final byte b : bytes) {
                if (b != ' ' && b != '\t' && b != '\r') {
                    return false;
                }
            }
            return true;
        }

        public Rejection oversized(final String format) {
            return new Rejection(bytes, RejectReason.OVERSIZED, "line longer than " + bytes.length
                + " bytes (kept the first " + bytes.length + ")", format, "line " + number);
        }

        public String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private final InputStream in;
    private final int limit;
    private final byte[] buffer = new byte[64 * 1024];
    private int pos;
    private int end;
    private long number;

    public LineReader(final InputStream in, final int limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next line, or null at end of input. */
    public Line next() throws IOException {
        byte[] line = new byte[128];
        int len = 0;
        boolean truncated = false;
        boolean any = false;
        while (true) {
            if (pos == end) {
                end = in.read(buffer);
                pos = 0;
                if (end <= 0) {
                    end = 0;
                    if (!any) {
                        return null;
                    }
                    break;
                }
            }
            any = true;
            int i = pos;
            while (i < end && buffer[i] != '\n') {
                i++;
            }
            final int n = i - pos;
            if (!truncated) {
                final int room = limit - len;
                final int take = Math.min(n, room);
                if (len + take > line.length) {
                    line = Arrays.copyOf(line, Math.max(len + take, line.length * 2));
                }
                System.arraycopy(buffer, pos, line, len, take);
                len += take;
                truncated = n > room;
            }
            pos = i;
            if (i < end) {
                pos++; // skip the newline
                break;
            }
        }
        number++;
        int trimmed = len;
        if (trimmed > 0 && line[trimmed - 1] == '\r') {
            trimmed--;
        }
        return new Line(Arrays.copyOf(line, trimmed), number, truncated);
    }
}
