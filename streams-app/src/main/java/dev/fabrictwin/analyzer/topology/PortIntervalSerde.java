package dev.fabrictwin.analyzer.topology;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.analyzer.rates.PortInterval;

/**
 * Compact binary form of a {@link PortInterval} for the analyzer's internal repartition topic: every interval
 * crosses it, so it is worth not paying for JSON there. Versioned by a leading byte.
 */
public final class PortIntervalSerde {

    private static final byte VERSION = 2;
    /** Device and port names read so far (the serde is shared by every stream thread). */
    private static final Map<String, String> NAMES_SEEN = new ConcurrentHashMap<>();
    private static final int MAX_NAMES = 1_000_000;

    private PortIntervalSerde() {
    }

    public static Serde<PortInterval> serde() {
        return Serdes.serdeFrom((Serializer<PortInterval>) (topic, v) -> write(v),
            (Deserializer<PortInterval>) (topic, bytes) -> read(bytes));
    }

    /** The serde of a record's intervals (a device's batch): a count, then each interval as {@link #serde()} writes it. */
    public static Serde<List<PortInterval>> listSerde() {
        return Serdes.serdeFrom((Serializer<List<PortInterval>>) (topic, v) -> writeList(v),
            (Deserializer<List<PortInterval>>) (topic, bytes) -> readList(bytes));
    }

    static byte[] writeList(final List<PortInterval> list) {
        if (list == null) {
            return null;
        }
        final Out out = new Out(64 + 200 * list.size());
        out.writeByte(VERSION);
        out.writeInt(list.size());
        for (final PortInterval v : list) {
            writeBody(out, v);
        }
        return out.bytes();
    }

    static List<PortInterval> readList(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            checkVersion(in.readByte());
            final int n = in.readInt();
            final List<PortInterval> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readBody(in));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void checkVersion(final byte version) {
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown port-interval encoding version " + version);
        }
    }

    static byte[] write(final PortInterval v) {
        if (v == null) {
            return null;
        }
        final Out out = new Out(256);
        out.writeByte(VERSION);
        writeBody(out, v);
        return out.bytes();
    }

    private static void writeBody(final Out out, final PortInterval v) {
        out.writeUTF(v.device());
        out.writeUTF(v.port());
        out.writeLong(v.t0());
        out.writeLong(v.t1());
        out.writeByte(v.reset() ? 1 : 0);
        // gap and estimated share a byte (bit 0, bit 1): version 2's boolean, which a reader of it takes as a gap
        out.writeByte((v.gap() ? 1 : 0) | (v.estimated() ? 2 : 0));
        out.writeInt(v.wraps());
        out.writeShort(v.increases().size());
        for (final var e : v.increases().entrySet()) {
            writeName(out, e.getKey());
            out.writeLong(e.getValue());
        }
        out.writeShort(v.gauges().size());
        for (final var e : v.gauges().entrySet()) {
            writeName(out, e.getKey());
            out.writeLong(Double.doubleToLongBits(e.getValue()));
        }
    }

    private static void writeName(final Out out, final String name) {
        final int code = WireNames.code(name);
        out.writeByte(code);
        if (code == 0) {
            out.writeUTF(name);
        }
    }

    /**
     * The bytes {@link DataOutputStream} writes, into one growing array: no stream, lock or per-byte call (the lanes'
     * writer through a DataOutputStream was about 8 % of the stream threads' time in bench streams).
     */
    private static final class Out {
        private byte[] buf;
        private int size;

        Out(final int capacity) {
            buf = new byte[capacity];
        }

        void writeByte(final int b) {
            room(1);
            buf[size++] = (byte) b;
        }

        void writeShort(final int v) {
            room(2);
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) v;
        }

        void writeInt(final int v) {
            room(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                buf[size++] = (byte) (v >>> shift);
            }
        }

        void writeLong(final long v) {
            room(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[size++] = (byte) (v >>> shift);
            }
        }

        /** As {@link DataOutputStream#writeUTF}: ASCII names byte for byte, anything else through it (modified UTF-8). */
        void writeUTF(final String s) {
            final int n = s.length();
            if (n > 0xFFFF) {
                utfThroughStream(s); // it throws as DataOutputStream does
                return;
            }
            room(2 + n);
            final int start = size;
            buf[size++] = (byte) (n >>> 8);
            buf[size++] = (byte) n;
            for (int i = 0; i < n; i++) {
                final char c = s.charAt(i);
                if (c == 0 || c > 0x7F) {
                    size = start;
                    utfThroughStream(s);
                    return;
                }
                buf[size++] = (byte) c;
            }
        }

        private void utfThroughStream(final String s) {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream(2 + 3 * s.length());
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeUTF(s);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            final byte[] encoded = bytes.toByteArray();
            room(encoded.length);
            System.arraycopy(encoded, 0, buf, size, encoded.length);
            size += encoded.length;
        }

        private void room(final int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        byte[] bytes() {
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        }
    }

    private static String readName(final DataInputStream in) throws IOException {
        final int code = in.readUnsignedByte();
        return code == 0 ? in.readUTF() : WireNames.name(code);
    }

    static PortInterval read(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            checkVersion(in.readByte());
            return readBody(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static PortInterval readBody(final DataInputStream in) throws IOException {
        final String device = canonical(in.readUTF());
        final String port = canonical(in.readUTF());
        final long t0 = in.readLong();
        final long t1 = in.readLong();
        final boolean reset = in.readBoolean();
        final int flags = in.readUnsignedByte();
        final boolean gap = (flags & 1) != 0;
        final boolean estimated = (flags & 2) != 0;
        final int wraps = in.readInt();
        // immutable maps built directly: PortInterval's Map.copyOf then keeps them as they are
        // counts unsigned: a sample may carry 32,768 counters or more (the short's bytes are the same below)
        final Map.Entry<String, Long>[] increases = new Map.Entry[in.readUnsignedShort()];
        for (int i = 0; i < increases.length; i++) {
            increases[i] = Map.entry(readName(in), in.readLong());
        }
        final Map.Entry<String, Double>[] gauges = new Map.Entry[in.readUnsignedShort()];
        for (int i = 0; i < gauges.length; i++) {
            gauges[i] = Map.entry(readName(in), in.readDouble());
        }
        return new PortInterval(device, port, t0, t1, Map.ofEntries(increases), Map.ofEntries(gauges), reset, wraps, gap,
            estimated);
    }

    /**
     * One instance per device or port name: the analysis looks every interval up by its port several times, and a
     * name it has seen before then hashes once (the hash is cached in the instance) and compares by identity.
     * Bounded by the fabric's names; cleared if something floods it.
     */
    private static String canonical(final String name) {
        if (NAMES_SEEN.size() > MAX_NAMES) {
            NAMES_SEEN.clear();
        }
        final String seen = NAMES_SEEN.putIfAbsent(name, name);
        return seen == null ? name : seen;
    }
}
