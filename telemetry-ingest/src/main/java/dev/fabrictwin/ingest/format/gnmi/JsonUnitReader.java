package dev.fabrictwin.ingest.format.gnmi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits a byte stream of JSON messages into input units without decoding it: one JSON object, a JSON array
 * of objects (each element is a unit), or objects concatenated with or without newlines. Bytes that are not
 * JSON where a message should start (a shell prompt, {@code ^C}, a log line) become one {@link Kind#GARBAGE}
 * unit that runs to the next line starting with <code>{</code> or {@code [}; a message cut off by the end of
 * input is {@link Kind#UNTERMINATED}. Memory is bounded: a unit longer than the limit keeps its first
 * {@code limit} bytes and is flagged {@code oversized}, the rest of it is skipped.
 *
 * <p>Only brackets and string quotes are tracked here; whether the unit is valid JSON is for the parser.
 */
final class JsonUnitReader {

    enum Kind { OBJECT, GARBAGE, UNTERMINATED }

    /** One unit: its raw bytes (capped), the 1-based line it starts on, and why it is not an object if so. */
    record Unit(Kind kind, byte[] bytes, long line, boolean oversized, String problem) {
    }

    private final InputStream in;
    private final int limit;
    private final byte[] buffer;
    private int pos;
    private int end;
    private boolean eof;
    private long consumed;
    private long line = 1;
    private boolean inArray;
    private long arrayLine;

    JsonUnitReader(final InputStream in, final int limit) {
        this.in = in;
        this.limit = Math.max(1, limit);
        // one Kafka message is read per reader (ingest --from-topic): size the buffer to it, not to 64 KiB each time
        this.buffer = new byte[bufferSize(in)];
    }

    private static int bufferSize(final InputStream in) {
        try {
            return Math.max(256, Math.min(64 * 1024, in.available() + 1));
        } catch (IOException e) {
            return 64 * 1024;
        }
    }

    /** The next unit, or null at the end of input. */
    Unit next() throws IOException {
        while (true) {
            final int b = peek();
            if (b < 0) {
                if (inArray) {
                    inArray = false;
                    return new Unit(Kind.UNTERMINATED, new byte[] {'['}, arrayLine, false,
                        "input ends inside a JSON array (no closing ']')");
                }
                return null;
            }
            if (isSpace(b) || isByteOrderMark(b)) {
                read();
                continue;
            }
            if (inArray) {
                if (b == ',') {
                    read();
                    continue;
                }
                if (b == ']') {
                    read();
                    inArray = false;
                    continue;
                }
                if (b == '{') {
                    return readObject();
                }
                return readArrayElement();
            }
            if (b == '{') {
                return readObject();
            }
            if (b == '[') {
                read();
                inArray = true;
                arrayLine = line;
                continue;
            }
            return readGarbage();
        }
    }

    private Unit readObject() throws IOException {
        final long startLine = line;
        final Collector out = new Collector(limit);
        final Nesting nesting = new Nesting();
        while (true) {
            if (peek() < 0) {
                return new Unit(Kind.UNTERMINATED, out.bytes(), startLine, out.oversized,
                    "input ends inside a JSON object (truncated)");
            }
            // scan the buffered bytes in place and copy them at once: read() and add() a byte were 10 % of
            // ingest --from-topic's stream thread (one object a Kafka message)
            int i = pos;
            boolean closed = false;
            while (i < end && !closed) {
                final int b = buffer[i++] & 0xff;
                if (b == '\n') {
                    line++;
                }
                closed = nesting.add(b);
            }
            out.add(buffer, pos, i - pos);
            consumed += i - pos;
            pos = i;
            if (closed) {
                return new Unit(Kind.OBJECT, out.bytes(), startLine, out.oversized, null);
            }
        }
    }

    /** An array element that is not an object: skipped up to the next top-level ',' or ']' of the array. */
    private Unit readArrayElement() throws IOException {
        final long startLine = line;
        final Collector out = new Collector(limit);
        final Nesting nesting = new Nesting();
        while (true) {
            final int b = peek();
            if (b < 0) {
                inArray = false;
                return new Unit(Kind.UNTERMINATED, out.bytes(), startLine, out.oversized,
                    "input ends inside a JSON array (no closing ']')");
            }
            if (nesting.atTop() && (b == ',' || b == ']')) {
                return new Unit(Kind.GARBAGE, out.bytes(), startLine, out.oversized,
                    "array element is not a JSON object");
            }
            read();
            out.add(b);
            nesting.add(b);
        }
    }

    /** Text that is not JSON: up to the end of the line, plus following lines that do not start a JSON value. */
    private Unit readGarbage() throws IOException {
        final long startLine = line;
        final Collector out = new Collector(limit);
        while (true) {
            final int b = read();
            if (b < 0) {
                break;
            }
            out.add(b);
            if (b == '\n') {
                int n = peek();
                while (n == ' ' || n == '\t' || n == '\r') {
                    out.add(read());
                    n = peek();
                }
                if (n < 0 || n == '{' || n == '[') {
                    break;
                }
            }
        }
        return new Unit(Kind.GARBAGE, out.bytes(), startLine, out.oversized, "not JSON: " + preview(out.bytes()));
    }

    private static String preview(final byte[] bytes) {
        final String s = new String(bytes, 0, Math.min(bytes.length, 60), StandardCharsets.UTF_8).strip();
        return "'" + s.replaceAll("\\s+", " ") + (bytes.length > 60 ? "...'" : "'");
    }

    private static boolean isSpace(final int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** A UTF-8 byte order mark at the very start of the input is skipped. */
    private boolean isByteOrderMark(final int b) {
        return consumed < 3 && (b == 0xEF || b == 0xBB || b == 0xBF);
    }

    private int peek() throws IOException {
        if (pos == end) {
            if (eof) {
                return -1;
            }
            final int n = in.read(buffer);
            if (n <= 0) {
                eof = true;
                return -1;
            }
            pos = 0;
            end = n;
        }
        return buffer[pos] & 0xff;
    }

    private int read() throws IOException {
        final int b = peek();
        if (b >= 0) {
            pos++;
            consumed++;
            if (b == '\n') {
                line++;
            }
        }
        return b;
    }

    /** Bracket depth and string state of JSON read byte by byte; brackets inside strings do not count. */
    private static final class Nesting {
        private int depth;
        private boolean inString;
        private boolean escaped;

        /** Takes the next byte; true when it is a closing bracket that leaves no bracket open. */
        boolean add(final int b) {
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                depth++;
            } else if (b == '}' || b == ']') {
                depth--;
                return depth <= 0;
            }
            return false;
        }

        /** Outside any string and bracket. */
        boolean atTop() {
            return !inString && depth == 0;
        }
    }

    /** Keeps at most {@code limit} bytes and remembers whether there were more. */
    private static final class Collector {
        private final int limit;
        private byte[] data = new byte[256];
        private int size;
        private boolean oversized;

        Collector(final int limit) {
            this.limit = limit;
        }

        void add(final int b) {
            if (size >= limit) {
                oversized = true;
                return;
            }
            if (size == data.length) {
                data = Arrays.copyOf(data, (int) Math.min((long) data.length * 2, limit));
            }
            data[size++] = (byte) b;
        }

        /** As {@link #add(int)} for each of {@code src[off, off+len)}. */
        void add(final byte[] src, final int off, final int len) {
            final int n = Math.min(len, limit - size);
            if (n < len) {
                oversized = true;
            }
            if (size + n > data.length) {
                data = Arrays.copyOf(data, (int) Math.min(Math.max((long) data.length * 2, size + n), limit));
            }
            System.arraycopy(src, off, data, size, n);
            size += n;
        }

        byte[] bytes() {
            return Arrays.copyOf(data, size);
        }
    }
}
