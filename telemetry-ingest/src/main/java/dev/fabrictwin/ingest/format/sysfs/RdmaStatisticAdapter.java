package dev.fabrictwin.ingest.format.sysfs;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.gnmi.GnmiUnits;
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format rdma}: the RDMA hardware counters of iproute2's {@code rdma statistic show -j} (or
 * {@code rdma statistic -j}, {@code -p} too): a JSON array with one object per RDMA port,
 * {@code {"ifname": "mlx5_1", "port": 1, "np_cnp_sent": 0, ...}}, each counter an unsigned integer named as the
 * kernel names it in {@code /sys/class/infiniband/<hca>/ports/<n>/hw_counters/}.
 *
 * <ul>
 *   <li><b>Input unit</b>: one port object → one sample (the array is split as the JSON message formats split
 *       theirs, {@link GnmiUnits}); several outputs may follow each other. A bad value rejects its port's object
 *       whole, the other ports go on.</li>
 *   <li><b>Names</b>: the sysfs reader's mapping ({@link SysfsPorts#counter}), so a counter has one name whichever
 *       way it was read: {@code np_cnp_sent} → {@code cnp_sent}, {@code rp_cnp_handled} → {@code cnp_handled},
 *       {@code np_ecn_marked_roce_packets} → {@code ecn_marked}, the others under their kernel names.
 *       {@code ifindex} (iproute2's device index, an attribute) is not a counter.</li>
 *   <li><b>Device</b>: {@link ParseContext#device()} (the output names no host; without it every port is
 *       MISSING_DEVICE). <b>Port</b>: {@code <ifname>/<port>}, as {@code --sysfs} names it ({@code mlx5_1/1}).
 *       <b>Timestamp</b>: {@link ParseContext#defaultTimestamp()}.</li>
 *   <li>Other {@code rdma} outputs are refused naming what they are: a QP counter of
 *       {@code rdma statistic qp show -j} (it has a {@code cntn}: counters of the QPs bound to it, not of the
 *       port), {@code rdma link -j} (a port's state, no counters); the text form (no {@code -j}) is not JSON.</li>
 * </ul>
 */
public final class RdmaStatisticAdapter implements FormatAdapter {

    public static final String FORMAT = "rdma";

    /** Keys of a port object that name it or are attributes, not counters. */
    private static final Set<String> NAMING_KEYS = Set.of("ifname", "port", "ifindex");
    /** Keys only {@code rdma link -j} prints, in its order (the message names the first found, the same every run). */
    private static final List<String> LINK_KEYS = List.of("state", "physical_state", "netdev", "netdev_index");

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final BlankInput input = new BlankInput(in);
        GnmiUnits.parse(input, context, sink, FORMAT, RdmaStatisticAdapter::port);
        if (input.bytes > 0 && input.blank) {
            // no unit at all, yet something came in: said, as the text formats say an input of blank lines
            sink.record();
            sink.reject(new Rejection(new byte[0], RejectReason.NO_COUNTERS, "input holds only blank space, no "
                + "'rdma statistic show -j' output", FORMAT, "byte 0"));
        }
    }

    /** Tells whether what was read is only blank space and byte order marks (the JSON splitter skips them without a unit). */
    private static final class BlankInput extends FilterInputStream {
        long bytes;
        boolean blank = true;

        BlankInput(final InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            final int b = super.read();
            if (b >= 0) {
                see(b);
            }
            return b;
        }

        @Override
        public int read(final byte[] buffer, final int offset, final int length) throws IOException {
            final int n = super.read(buffer, offset, length);
            for (int i = 0; i < n; i++) {
                see(buffer[offset + i]);
            }
            return n;
        }

        private void see(final int b) {
            bytes++;
            final int u = b & 0xff;
            blank &= u == ' ' || u == '\t' || u == '\r' || u == '\n' || u == 0xef || u == 0xbb || u == 0xbf; // BOM too
        }
    }

    private static List<Sample> port(final JsonNode link, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        if (link.has("cntn")) {
            throw new SampleFormatException(RejectReason.MALFORMED, "a QP counter of 'rdma statistic qp show -j' (cntn "
                + CounterValues.clip(link.get("cntn").toString()) + "), not a port's: read 'rdma statistic show -j'");
        }
        for (final String key : LINK_KEYS) {
            if (link.has(key)) {
                throw new SampleFormatException(RejectReason.MALFORMED, "'rdma link -j' output (\"" + key
                    + "\": a port's state, no counters): read 'rdma statistic show -j'");
            }
        }
        final String hca = link.path("ifname").isTextual() ? link.get("ifname").asText().strip() : "";
        final JsonNode number = link.path("port");
        final String port = number.isIntegralNumber() || number.isTextual() ? number.asText().strip() : "";
        if (hca.isEmpty() || !port.matches("\\d{1,5}")) {
            throw new SampleFormatException(RejectReason.MISSING_PORT, "not a port of 'rdma statistic show -j': expected "
                + "\"ifname\" (the RDMA device) and a numbered \"port\", found keys " + keys(link));
        }
        final String device = context.device();
        if (device == null || device.isBlank()) {
            throw new SampleFormatException(RejectReason.MISSING_DEVICE, "rdma statistic names no host: give the device (--device)");
        }
        if (context.defaultTimestamp() <= 0) {
            throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP,
                "rdma statistic carries no timestamp and no default timestamp was given");
        }
        final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        for (final Iterator<Map.Entry<String, JsonNode>> it = link.fields(); it.hasNext(); ) {
            final Map.Entry<String, JsonNode> field = it.next();
            final String name = field.getKey();
            if (NAMING_KEYS.contains(name)) {
                continue;
            }
            final JsonNode value = field.getValue();
            if (!value.isValueNode()) {
                throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not a number: "
                    + CounterValues.clip(value.toString()));
            }
            final long parsed = CounterValues.parseUnsigned(value.asText(), name);
            final CounterMapping.Mapped mapped = SysfsPorts.counter(name);
            if (mapped.name() != null) {
                counters.add(Target.parse(mapped.name()), name, CounterValues.scale(parsed, mapped.scale()));
            }
        }
        if (counters.isEmpty()) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "port " + hca + "/" + port + " has no counters");
        }
        return List.of(new Sample(context.defaultTimestamp(), device, hca + "/" + port, FORMAT, counters.toMap(), Map.of()));
    }

    private static String keys(final JsonNode node) {
        final List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        final String all = String.join(", ", names.subList(0, Math.min(8, names.size())));
        return names.isEmpty() ? "none" : names.size() > 8 ? all + ", ..." : all;
    }
}
