package dev.fabrictwin.analyzer.topology;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

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

    private static final byte VERSION = 1;

    private PortIntervalSerde() {
    }

    public static Serde<PortInterval> serde() {
        return Serdes.serdeFrom((Serializer<PortInterval>) (topic, v) -> write(v),
            (Deserializer<PortInterval>) (topic, bytes) -> read(bytes));
    }

    static byte[] write(final PortInterval v) {
        if (v == null) {
            return null;
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(v.device());
            out.writeUTF(v.port());
            out.writeLong(v.t0());
            out.writeLong(v.t1());
            out.writeBoolean(v.reset());
            out.writeBoolean(v.gap());
            out.writeInt(v.wraps());
            out.writeShort(v.increases().size());
            for (final var e : v.increases().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeShort(v.gauges().size());
            for (final var e : v.gauges().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeDouble(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static PortInterval read(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            final byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown port-interval encoding version " + version);
            }
            final String device = in.readUTF();
            final String port = in.readUTF();
            final long t0 = in.readLong();
            final long t1 = in.readLong();
            final boolean reset = in.readBoolean();
            final boolean gap = in.readBoolean();
            final int wraps = in.readInt();
            final Map<String, Long> increases = new HashMap<>();
            for (int i = in.readShort(); i > 0; i--) {
                increases.put(in.readUTF(), in.readLong());
            }
            final Map<String, Double> gauges = new HashMap<>();
            for (int i = in.readShort(); i > 0; i--) {
                gauges.put(in.readUTF(), in.readDouble());
            }
            return new PortInterval(device, port, t0, t1, increases, gauges, reset, wraps, gap);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
