package dev.fabrictwin.analyzer.topology;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.contract.sample.SampleSerde;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Values of the rates stage's store ({@link RatesStage#LAST_SAMPLE_STORE}): each port's last samples, one written
 * per sample and changelogged, so a compact binary form rather than canonical JSON (its writer was about a
 * tenth of the stream threads' time). A leading version byte below the printable range tells it from the canonical
 * JSON the store held before, which is still read: the changelog of a running deployment holds it.
 *
 * <p>Version 1: the byte 1, ts (8 bytes), device, port, source (each a 2-byte length and UTF-8), the counters
 * (2-byte count; each a name and 8 bytes, unsigned 64-bit as it is held) and the gauges (2-byte count; each a name
 * and an IEEE double). A name is a {@link WireNames} code byte, or 0 and the name as text.
 *
 * <p>The store holds {@link HeldSample}s ({@link #HELD}): version 2 is the byte 2, the sample's batch number (8
 * bytes), then version 1's fields after its version byte; version 3, a partition's mark, the byte 3 and the number of
 * the last batch sent. A value of version 1 or canonical JSON reads as a sample of no number
 * ({@link HeldSample#UNNUMBERED}).
 */
final class LastSampleSerde {

    static final Serde<Sample> INSTANCE = Serdes.serdeFrom((Serializer<Sample>) (topic, sample) -> write(sample),
        (Deserializer<Sample>) (topic, bytes) -> read(bytes));

    static final Serde<HeldSample> HELD = Serdes.serdeFrom((Serializer<HeldSample>) (topic, held) -> writeHeld(held),
        (Deserializer<HeldSample>) (topic, bytes) -> readHeld(bytes));

    private static final byte VERSION = 1;
    private static final byte HELD_VERSION = 2;
    private static final byte MARK_VERSION = 3;

    private LastSampleSerde() {
    }

    static byte[] write(final Sample sample) {
        return sample == null ? null : write(sample, VERSION, 0);
    }

    static byte[] writeHeld(final HeldSample held) {
        if (held == null) {
            return null;
        }
        if (held.isMark()) {
            final Writer out = new Writer(9);
            out.put(MARK_VERSION);
            out.putLong(held.batch());
            return out.bytes();
        }
        return write(held.sample(), HELD_VERSION, held.batch());
    }

    static HeldSample readHeld(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length > 0 && (bytes[0] == HELD_VERSION || bytes[0] == MARK_VERSION)) {
            if (bytes[0] == MARK_VERSION && bytes.length != 9) {
                throw new IllegalArgumentException("last-sample mark of " + bytes.length + " bytes, not 9");
            }
            if (bytes.length < 9) {
                throw new IllegalArgumentException("truncated last-sample record of " + bytes.length + " bytes");
            }
            final long batch = ByteBuffer.wrap(bytes, 1, 8).getLong();
            return new HeldSample(bytes[0] == MARK_VERSION ? null : readBody(bytes, 9), batch);
        }
        return new HeldSample(read(bytes), HeldSample.UNNUMBERED);
    }

    private static byte[] write(final Sample sample, final byte version, final long batch) {
        final Writer out = new Writer(72 + 12 * (sample.counters().size() + sample.gauges().size()));
        out.put(version);
        if (version == HELD_VERSION) {
            out.putLong(batch);
        }
        out.putLong(sample.ts());
        out.putText(sample.device());
        out.putText(sample.port());
        out.putText(sample.source());
        out.putCount(sample.counters().size());
        for (final var e : sample.counters().entrySet()) {
            out.putName(e.getKey());
            out.putLong(e.getValue());
        }
        out.putCount(sample.gauges().size());
        for (final var e : sample.gauges().entrySet()) {
            out.putName(e.getKey());
            final double d = e.getValue();
            out.putLong(Double.doubleToLongBits(d == 0 ? 0.0 : d)); // -0.0 reads back as 0, as from the JSON form
        }
        return out.bytes();
    }

    static Sample read(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length == 0 || !isVersioned(bytes[0])) {
            return SampleSerde.read(bytes); // written before version 1: canonical JSON
        }
        if (bytes[0] != VERSION) {
            throw new IllegalArgumentException("unknown last-sample encoding version " + bytes[0]);
        }
        return readBody(bytes, 1);
    }

    /** Version 1's fields from {@code offset}. */
    private static Sample readBody(final byte[] bytes, final int offset) {
        try {
            final ByteBuffer in = ByteBuffer.wrap(bytes, offset, bytes.length - offset);
            final long ts = in.getLong();
            final String device = text(in);
            final String port = text(in);
            final String source = text(in);
            final Map<String, Long> counters = new LinkedHashMap<>();
            for (int n = Short.toUnsignedInt(in.getShort()); n > 0; n--) {
                counters.put(name(in), in.getLong());
            }
            final Map<String, Double> gauges = new LinkedHashMap<>();
            for (int n = Short.toUnsignedInt(in.getShort()); n > 0; n--) {
                gauges.put(name(in), in.getDouble());
            }
            return new Sample(ts, device, port, source, counters, gauges);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated last-sample record of " + bytes.length + " bytes");
        }
    }

    /** JSON starts with '{' or white space; a version byte is a control character other than those. */
    private static boolean isVersioned(final byte first) {
        return first >= 0 && first < 0x20 && first != '\t' && first != '\n' && first != '\r';
    }

    private static String text(final ByteBuffer in) {
        final int length = Short.toUnsignedInt(in.getShort());
        final String text = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return text;
    }

    private static String name(final ByteBuffer in) {
        final int code = Byte.toUnsignedInt(in.get());
        return code == 0 ? text(in) : WireNames.name(code);
    }

    /** A growing byte array: no stream, lock or copy per field. */
    private static final class Writer {
        private byte[] buf;
        private int size;

        Writer(final int capacity) {
            buf = new byte[capacity];
        }

        void put(final byte b) {
            room(1);
            buf[size++] = b;
        }

        void putLong(final long v) {
            room(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[size++] = (byte) (v >>> shift);
            }
        }

        void putCount(final int n) {
            if (n > 0xFFFF) {
                throw new IllegalArgumentException("a sample of " + n + " values is too large to store");
            }
            room(2);
            buf[size++] = (byte) (n >>> 8);
            buf[size++] = (byte) n;
        }

        void putText(final String text) {
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            putCount(utf8.length);
            room(utf8.length);
            System.arraycopy(utf8, 0, buf, size, utf8.length);
            size += utf8.length;
        }

        void putName(final String name) {
            final int code = WireNames.code(name);
            put((byte) code);
            if (code == 0) {
                putText(name);
            }
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
}
