package dev.fabrictwin.ingest.format.sonic;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.BoundedInput;
import dev.fabrictwin.ingest.format.support.Canonical;
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.InstantValues;
import dev.fabrictwin.ingest.format.support.KeepFirstJson;
import dev.fabrictwin.ingest.format.support.QueueDimension;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format sonic}: SONiC {@code COUNTERS_DB} dumps as JSON — one object whose keys are Redis keys:
 * {@code COUNTERS:oid:0x...} hashes of SAI statistics (values are decimal strings) and the name maps that say
 * what each OID is ({@code COUNTERS_PORT_NAME_MAP}: {@code Ethernet0 → oid}, {@code COUNTERS_QUEUE_NAME_MAP}:
 * {@code Ethernet0:3 → oid}, {@code COUNTERS_PG_NAME_MAP}). Several dumps may follow each other in one input.
 * Entries wrapped as {@code sonic-db-dump} / {@code redis-dump} write them ({@code {"type":"hash","value":{..}}})
 * are unwrapped.
 *
 * <ul>
 *   <li><b>Input unit</b>: one front-panel port — its {@code COUNTERS:oid} entity plus the entities of its
 *       queues and priority groups → one sample; {@link IngestSink#record()} once per port. A bad value (in any
 *       of them) rejects that port only, with raw bytes = the offending entity's JSON exactly as received
 *       (wrapped in braces) and location = its Redis key; the other ports are unaffected. A port is not
 *       half-sampled: a queue's roll-up missing from a cumulative counter would look like a counter reset.
 *       A dump that is not valid JSON is rejected whole (MALFORMED); one with no port, queue or PG counters is
 *       rejected NO_COUNTERS; a key repeated in a hash or in the dump keeps its first value, the repeat counted
 *       and named ({@link RepeatedKeys}); an input larger than {@value #DOCUMENT_FACTOR} × {@link ParseContext#maxRecordBytes()}
 *       is rejected OVERSIZED, as is a port whose entities exceed {@link ParseContext#maxRecordBytes()}.</li>
 *   <li><b>Device</b>: {@link ParseContext#device()} (the dump has no hostname); without it every port is
 *       rejected MISSING_DEVICE. <b>Port</b>: the name in {@code COUNTERS_PORT_NAME_MAP}. <b>Timestamp</b>:
 *       {@link ParseContext#defaultTimestamp()}.</li>
 *   <li><b>Queues and priority groups</b>: every mapped statistic is kept per queue as {@code <name>.q<index>}
 *       (the queue rule of {@link QueueDimension}) and per priority group as {@code <name>.pg<index>} — switch
 *       queues are traffic classes (RoCE rides one), so they are few and worth keeping. Instant values
 *       (occupancies, watermarks: {@link InstantValues}) are gauges. Those whose mapped name is a canonical per-port counter
 *       ({@code ecn_marked}, {@code tx_drops}, {@code rx_drops}) are also summed into the port's counter, unless
 *       the port entity reports that counter itself (the port's own value wins, so nothing is counted twice).
 *       Gauges roll up too: {@code queue_depth_bytes} summed, {@code buffer_watermark_bytes} as the maximum.</li>
 *   <li>Entities that are neither ports, queues nor PGs (router interfaces, LAGs, ACLs, tunnels, switch,
 *       fabric and system ports, VOQs) and other tables ({@code RATES}, {@code *_WATERMARKS}, {@code CRM}) are
 *       ignored.</li>
 * </ul>
 */
public final class SonicCountersDbAdapter implements FormatAdapter {

    public static final String FORMAT = "sonic";
    /** A whole dump may hold many ports; it is bounded at this many times the per-unit limit. */
    public static final int DOCUMENT_FACTOR = 64;

    private static final String ENTITY_PREFIX = "COUNTERS:oid:";
    private static final String PORT_MAP = "COUNTERS_PORT_NAME_MAP";
    private static final String QUEUE_MAP = "COUNTERS_QUEUE_NAME_MAP";
    private static final String PG_MAP = "COUNTERS_PG_NAME_MAP";

    /** Names up to the record limit: a long statistic name is NAME_TOO_LONG by the validator, not Jackson's complaint. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxNumberLength(64)
            .maxNameLength(ParseContext.DEFAULT_MAX_RECORD_BYTES).build())
        .build();
    private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    /** One {@code COUNTERS:oid:...} hash: its Redis key, statistics, byte range in the input, and the keys it repeats. */
    private record Entity(String key, JsonNode fields, int start, int end, RepeatedKeys repeated) {
    }

    /** A queue or PG entity attached to a port. */
    private record Member(String kind, String index, Entity entity) {
    }

    private static final class PortUnit {
        final String port;
        final List<Entity> own = new ArrayList<>(1);
        final List<Member> members = new ArrayList<>();

        PortUnit(final String port) {
            this.port = port;
        }

        boolean isEmpty() {
            return own.isEmpty() && members.isEmpty();
        }
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final long documentLimit = Math.min(Integer.MAX_VALUE - 64L, (long) context.maxRecordBytes() * DOCUMENT_FACTOR);
        final BoundedInput.Read read = BoundedInput.readAll(in, (int) documentLimit);
        final byte[] doc = read.bytes();
        if (read.truncated()) {
            sink.record();
            sink.reject(new Rejection(Arrays.copyOf(doc, Math.min(doc.length, context.maxRecordBytes())),
                RejectReason.OVERSIZED, "COUNTERS_DB dump of " + read.total() + " bytes is larger than " + documentLimit
                + " bytes", FORMAT, "byte 0"));
            return;
        }
        int from = 0;
        try (JsonParser p = FACTORY.createParser(doc)) {
            while (true) {
                final JsonToken t = p.nextToken();
                if (t == null) {
                    break;
                }
                from = (int) p.currentTokenLocation().getByteOffset();
                if (t != JsonToken.START_OBJECT) {
                    throw new IOException("a COUNTERS_DB dump must be a JSON object, found " + t);
                }
                final Map<String, JsonNode> maps = new HashMap<>();
                final List<Entity> entities = new ArrayList<>();
                final Set<String> keys = new HashSet<>();
                // a key the dump repeats (a Redis key, a name in a name map) keeps its first value, counted with the dump
                final RepeatedKeys repeated = new RepeatedKeys();
                JsonToken field;
                while ((field = p.nextToken()) == JsonToken.FIELD_NAME) {
                    final String key = p.currentName();
                    final int keyStart = (int) p.currentTokenLocation().getByteOffset();
                    final JsonToken value = p.nextToken();
                    final boolean entity = key.startsWith(ENTITY_PREFIX);
                    if (entity || ((key.equals(PORT_MAP) || key.equals(QUEUE_MAP) || key.equals(PG_MAP))
                        && value == JsonToken.START_OBJECT)) {
                        if (!keys.add(key)) {
                            repeated.accept(key);
                            p.skipChildren();
                            continue;
                        }
                        final RepeatedKeys own = entity ? new RepeatedKeys() : repeated;
                        final JsonNode node = unwrap(KeepFirstJson.readTree(MAPPER, p, own));
                        final int end = value.isStructStart() ? (int) p.currentTokenLocation().getByteOffset() + 1
                            : (int) p.currentLocation().getByteOffset();
                        if (entity) {
                            entities.add(new Entity(key, node, keyStart, end, own));
                        } else {
                            maps.put(key, node);
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                if (field != JsonToken.END_OBJECT) {
                    throw new IOException("unexpected " + field + " in the dump object");
                }
                final int end = (int) p.currentTokenLocation().getByteOffset() + 1;
                dump(doc, from, end, maps, entities, repeated, context, sink);
                from = end;
            }
        } catch (IOException | RuntimeException e) {
            // the dump is not valid JSON (the buffered input cannot fail to read): reject what is left of it
            sink.record();
            final int start = Math.min(Math.max(from, 0), doc.length);
            final byte[] rest = Arrays.copyOfRange(doc, start, Math.min(doc.length, start + context.maxRecordBytes()));
            sink.reject(new Rejection(rest, RejectReason.MALFORMED, "not a valid COUNTERS_DB JSON dump: "
                + firstLine(e.getMessage()), FORMAT, "byte " + start));
        }
    }

    /** {@code {"type": "hash", "value": {...}}} (sonic-db-dump, redis-dump) → the value object. */
    private static JsonNode unwrap(final JsonNode node) {
        final JsonNode value = node.get("value");
        if (value != null && value.isObject() && node.path("type").isTextual()) {
            return value;
        }
        return node;
    }

    private void dump(final byte[] doc, final int start, final int end, final Map<String, JsonNode> maps,
                      final List<Entity> entities, final RepeatedKeys repeated, final ParseContext context,
                      final IngestSink sink) {
        final Map<String, String> portByOid = new HashMap<>();
        final Map<String, PortUnit> units = new LinkedHashMap<>();
        for (final var e : fields(maps.get(PORT_MAP))) {
            if (e.getValue().isTextual()) {
                portByOid.put(e.getValue().asText(), e.getKey());
                units.computeIfAbsent(e.getKey(), PortUnit::new);
            }
        }
        final Map<String, String[]> memberByOid = new HashMap<>();
        members(maps.get(QUEUE_MAP), "queue", memberByOid);
        members(maps.get(PG_MAP), "pg", memberByOid);

        for (final Entity e : entities) {
            final String oid = e.key().substring("COUNTERS:".length());
            final String port = portByOid.get(oid);
            if (port != null) {
                units.get(port).own.add(e);
                continue;
            }
            final String[] member = memberByOid.get(oid);
            if (member != null) {
                units.computeIfAbsent(member[1], PortUnit::new).members.add(new Member(member[0], member[2], e));
            }
            // anything else (router interfaces, LAGs, ACLs, tunnels, switch, fabric/system ports): ignored
        }
        units.values().removeIf(PortUnit::isEmpty);
        if (units.isEmpty()) {
            sink.record();
            sink.reject(new Rejection(Arrays.copyOfRange(doc, start, Math.min(end, start + context.maxRecordBytes())),
                RejectReason.NO_COUNTERS, "dump holds no COUNTERS:oid entity of a port, queue or priority group", FORMAT,
                "byte " + start));
            return;
        }
        boolean sampled = false;
        for (final PortUnit unit : units.values()) {
            sink.record();
            sampled |= port(doc, unit, context, sink);
        }
        if (sampled) {
            repeated.report(sink);
        }
    }

    /** Name map {@code "Ethernet0:3" → oid} → oid → {kind, port, index}. */
    private static void members(final JsonNode map, final String kind, final Map<String, String[]> out) {
        for (final var e : fields(map)) {
            final int colon = e.getKey().lastIndexOf(':');
            if (e.getValue().isTextual() && colon > 0 && colon < e.getKey().length() - 1) {
                out.putIfAbsent(e.getValue().asText(),
                    new String[] {kind, e.getKey().substring(0, colon), e.getKey().substring(colon + 1)});
            }
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(final JsonNode node) {
        if (node == null || !node.isObject()) {
            return List.of();
        }
        return node.properties();
    }

    /** Reports one port's sample or rejection; true if its sample went out. */
    private boolean port(final byte[] doc, final PortUnit unit, final ParseContext context, final IngestSink sink) {
        final List<Entity> all = new ArrayList<>(unit.own);
        unit.members.forEach(m -> all.add(m.entity()));
        final String where = "port " + unit.port;
        final long size = all.stream().mapToLong(e -> e.end() - e.start() + 1L).sum() + 1;
        if (size > context.maxRecordBytes()) {
            sink.reject(new Rejection(raw(doc, all, context.maxRecordBytes()), RejectReason.OVERSIZED, "entities of port "
                + unit.port + " take " + size + " bytes, more than " + context.maxRecordBytes(), FORMAT, where));
            return false;
        }
        final String device = context.device();
        if (device == null || device.isBlank()) {
            sink.reject(new Rejection(raw(doc, all, context.maxRecordBytes()), RejectReason.MISSING_DEVICE,
                "COUNTERS_DB dumps name no host: give the device (--device)", FORMAT, where));
            return false;
        }
        final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        final Map<String, Double> gauges = new LinkedHashMap<>();
        final Map<String, Long> rolledCounters = new LinkedHashMap<>();
        final Map<String, Double> rolledGauges = new LinkedHashMap<>();
        Entity current = null;
        try {
            for (final Entity e : all) {
                if (!e.fields().isObject()) {
                    current = e;
                    throw new SampleFormatException(RejectReason.MALFORMED, e.key() + " is not a hash of statistics");
                }
            }
            for (final Entity e : unit.own) {
                current = e;
                for (final var f : fields(e.fields())) {
                    final CounterMapping.Mapped mapped = mapping.map(f.getKey());
                    if (mapped.name() == null) {
                        continue;
                    }
                    final Target target = Target.parse(mapped.name());
                    final String text = scalar(f.getKey(), f.getValue());
                    if (InstantValues.isGaugeName(target.name())) {
                        gauges.put(target.name(), CounterValues.parseGauge(text, f.getKey()) * mapped.scale());
                    } else {
                        counters.add(target, f.getKey(), CounterValues.scale(CounterValues.parseUnsigned(text, f.getKey()),
                            mapped.scale()));
                    }
                }
            }
            for (final Member m : unit.members) {
                current = m.entity();
                // docs/ingest.md "Queues and priorities": a queue's values as <name>.q<i>, a priority group's as <name>.pg<i>
                final String suffix = m.kind().equals("queue") ? "." + QueueDimension.suffix(m.index()) : ".pg" + m.index();
                for (final var f : fields(m.entity().fields())) {
                    final CounterMapping.Mapped mapped = mapping.map(f.getKey());
                    if (mapped.name() == null) {
                        continue;
                    }
                    final String name = Target.parse(mapped.name()).name();
                    final String text = scalar(f.getKey(), f.getValue());
                    if (Canonical.isGauge(name)) {
                        final double v = CounterValues.parseGauge(text, f.getKey()) * mapped.scale();
                        gauges.merge(name + suffix, v, Math::max);
                        rolledGauges.merge(name, v, name.equals(CounterNames.QUEUE_DEPTH_BYTES) ? Double::sum : Math::max);
                    } else if (InstantValues.isGaugeName(name)) {
                        gauges.merge(name + suffix, CounterValues.parseGauge(text, f.getKey()) * mapped.scale(), Math::max);
                    } else {
                        final long v = CounterValues.scale(CounterValues.parseUnsigned(text, f.getKey()), mapped.scale());
                        // the source names the entity itself, so the queues folded into .qrest stay distinct and add up
                        counters.add(new Target(name + suffix, false, QueueDimension.isFolded(name + suffix)),
                            f.getKey() + "." + m.kind() + m.index(), v);
                        if (Canonical.isCounter(name)) {
                            rolledCounters.merge(name, v, Long::sum);
                        }
                    }
                }
            }
        } catch (SampleFormatException ex) {
            sink.reject(new Rejection(raw(doc, List.of(current), context.maxRecordBytes()), ex.reason(),
                ex.getMessage() + " (in " + current.key() + ")", FORMAT, current.key()));
            return false;
        }
        rolledCounters.forEach(counters::putIfAbsent);
        rolledGauges.forEach(gauges::putIfAbsent);
        try {
            if (context.defaultTimestamp() <= 0) {
                throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP,
                    "COUNTERS_DB dumps carry no timestamp and no default timestamp was given");
            }
            final Sample s = new Sample(context.defaultTimestamp(), device, unit.port, FORMAT, counters.toMap(), gauges);
            SampleValidator.validate(s, context);
            sink.sample(s);
            // statistics the mapping file drops are no keys of the sample, repeated or not
            all.forEach(e -> RepeatedKeys.report(sink, e.repeated().keys().stream()
                .filter(name -> mapping.map(name).name() != null).toList()));
            return true;
        } catch (SampleFormatException ex) {
            sink.reject(new Rejection(raw(doc, all, context.maxRecordBytes()), ex.reason(), ex.getMessage(), FORMAT, where));
            return false;
        }
    }

    /** A statistic's value as text: SONiC writes decimal strings; plain JSON numbers are accepted too. */
    private static String scalar(final String name, final JsonNode v) throws SampleFormatException {
        if (v.isTextual() || v.isNumber()) {
            return v.asText();
        }
        throw new SampleFormatException(RejectReason.NON_NUMERIC, "statistic " + name + " is not a number but " + v.getNodeType());
    }

    /** The entities' JSON exactly as received, as one object: {@code {"COUNTERS:oid:..": {..}, ...}}. */
    private static byte[] raw(final byte[] doc, final List<Entity> entities, final int limit) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('{');
        final Iterator<Entity> it = entities.iterator();
        while (it.hasNext() && out.size() < limit) {
            final Entity e = it.next();
            out.write(doc, e.start(), e.end() - e.start());
            if (it.hasNext()) {
                out.write(',');
            }
        }
        out.write('}');
        final byte[] b = out.toByteArray();
        return b.length > limit ? Arrays.copyOf(b, limit) : b;
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
