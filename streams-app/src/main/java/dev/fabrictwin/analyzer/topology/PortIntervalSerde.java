package dev.fabrictwin.analyzer.topology;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.Quoted;
import dev.fabrictwin.twin.telemetry.FrozenMap;

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
        final byte[] read = LAST_READ.get().bytesOf(list);
        if (read != null) {
            return read;
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
        final In in = new In(bytes);
        checkVersion(in.readByte());
        final int n = in.readInt();
        if (n < 0 || n > bytes.length) { // each interval takes bytes: a count past them is a broken record
            throw new IllegalArgumentException("port-interval batch of " + n + " intervals in " + bytes.length + " bytes");
        }
        final List<PortInterval> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readBody(in));
        }
        in.requireEnd();
        final List<PortInterval> batch = Collections.unmodifiableList(out);
        LAST_READ.get().remember(batch, bytes);
        return batch;
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

    static PortInterval read(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        final In in = new In(bytes);
        checkVersion(in.readByte());
        final PortInterval interval = readBody(in);
        in.requireEnd();
        return interval;
    }

    private static PortInterval readBody(final In in) {
        final String device = canonical(in.readUTF());
        final String port = canonical(in.readUTF());
        final long t0 = in.readLong();
        final long t1 = in.readLong();
        final boolean reset = in.readByte() != 0;
        final int flags = in.readByte() & 0xFF;
        final boolean gap = (flags & 1) != 0;
        final boolean estimated = (flags & 2) != 0;
        final int wraps = in.readInt();
        // counts unsigned: a sample may carry 32,768 counters or more (the short's bytes are the same below)
        final Names increaseNames = new Names();
        final int nIncreases = in.readUnsignedShort();
        final FrozenMap.Builder<Long> increases = new FrozenMap.Builder<>(nIncreases);
        for (int i = 0; i < nIncreases; i++) {
            increases.putAbsent(increaseNames.distinct(in), in.readLong());
        }
        final Names gaugeNames = new Names();
        final int nGauges = in.readUnsignedShort();
        final FrozenMap.Builder<Double> gauges = new FrozenMap.Builder<>(nGauges);
        for (int i = 0; i < nGauges; i++) {
            gauges.putAbsent(gaugeNames.distinct(in), Double.longBitsToDouble(in.readLong()));
        }
        return new PortInterval(device, port, t0, t1, increases.build(), gauges.build(), reset, wraps, gap, estimated);
    }

    /**
     * The names of one map as they are read, each refused if it came before (a map's keys are distinct; a record
     * that repeats one is broken): coded names by a bit each, names written as text in a set made only for them.
     */
    private static final class Names {
        private long codesSeen;
        private Set<String> textSeen;

        String distinct(final In in) {
            final int code = in.readByte() & 0xFF;
            if (code != 0) {
                final String name = WireNames.name(code);
                final long bit = 1L << code; // codes are 1..63
                if ((codesSeen & bit) != 0) {
                    throw new IllegalArgumentException("port interval repeats the name " + name);
                }
                codesSeen |= bit;
                return name;
            }
            final String name = in.readUTF();
            if (textSeen == null) {
                textSeen = new HashSet<>();
            }
            if (!textSeen.add(name)) {
                throw new IllegalArgumentException("port interval repeats the name " + Quoted.of(name));
            }
            return name;
        }
    }

    /**
     * Reads what {@link Out} wrote (the bytes of a {@link DataOutputStream}) straight from the array: a
     * {@code DataInputStream} over it, and {@code Map.ofEntries} hashing every name, were two thirds of reading a lane.
     */
    private static final class In {
        private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
        private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
        private final byte[] buf;
        private int pos;

        In(final byte[] buf) {
            this.buf = buf;
        }

        private int take(final int n) {
            if (n > buf.length - pos) {
                throw new IllegalArgumentException("port-interval record ends early (" + buf.length + " bytes)");
            }
            final int at = pos;
            pos += n;
            return at;
        }

        byte readByte() {
            return buf[take(1)];
        }

        int readUnsignedShort() {
            final int at = take(2);
            return (buf[at] & 0xFF) << 8 | buf[at + 1] & 0xFF;
        }

        int readInt() {
            return (int) INT.get(buf, take(4));
        }

        long readLong() {
            return (long) LONG.get(buf, take(8));
        }

        /** As {@link DataInputStream#readUTF}: ASCII (what names are) without a decoder, the rest through it. */
        String readUTF() {
            final int n = readUnsignedShort();
            final int at = take(n);
            for (int i = at; i < at + n; i++) {
                if (buf[i] <= 0) { // a NUL is written as two bytes, so a zero byte or any above 0x7F is not ASCII
                    return utfThroughStream(at - 2, n + 2);
                }
            }
            return new String(buf, at, n, StandardCharsets.ISO_8859_1);
        }

        private String utfThroughStream(final int from, final int length) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(buf, from, length))) {
                return in.readUTF();
            } catch (IOException e) {
                throw new IllegalArgumentException("port-interval record has a malformed name: " + e.getMessage(), e);
            }
        }

        void requireEnd() {
            if (pos != buf.length) {
                throw new IllegalArgumentException("port-interval record has " + (buf.length - pos) + " bytes past its end");
            }
        }
    }

    /**
     * The batch the lanes' deserializer last gave this thread, and its bytes: the analysis journals the very batch it
     * was handed ({@link AnalysisCheckpoints}), whose bytes are then these, not written again (a sixth of the lanes'
     * serde). By identity, and the batch is unmodifiable, so the bytes are the batch's.
     */
    private static final ThreadLocal<LastRead> LAST_READ = ThreadLocal.withInitial(LastRead::new);

    private static final class LastRead {
        private List<PortInterval> batch;
        private byte[] bytes;

        void remember(final List<PortInterval> batch, final byte[] bytes) {
            this.batch = batch;
            this.bytes = bytes;
        }

        byte[] bytesOf(final List<PortInterval> list) {
            return list == batch ? bytes : null;
        }
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
