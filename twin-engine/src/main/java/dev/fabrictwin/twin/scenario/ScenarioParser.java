package dev.fabrictwin.twin.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.fabrictwin.twin.fabric.FabricFileSpec;
import dev.fabrictwin.twin.fabric.FabricSpec;
import dev.fabrictwin.twin.fabric.FatTree;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.units.Units;
import dev.fabrictwin.twin.workload.FlowSpec;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PinSpec;

/**
 * Reads scenario YAML (docs/contracts.md). Every error is a {@link ScenarioException} whose one-line message names
 * the file and the field ({@code jobs[0].pattern: unknown pattern 'x' ...}), so the CLI can print it as is.
 * Unknown keys are errors too: a typo must not silently become a default.
 */
public final class ScenarioParser {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> TOP_KEYS = Set.of("name", "seed", "duration", "sampleInterval", "epoch", "fabric",
        "jobs", "faults", "routing", "technology", "description", "telemetry", "transport", "flows", "pins");
    private static final Set<String> FABRIC_KEYS = Set.of("kind", "file", "spines", "leaves", "hostsPerLeaf", "nicsPerHost",
        "linkSpeed", "hostLinkSpeed", "coreLinkSpeed", "technology", "k", "pods", "leavesPerPod", "spinesPerPod", "cores",
        "hosts", "hostsPerGroup");
    private static final Set<String> JOB_KEYS = Set.of("id", "hosts", "hostList", "pattern", "bytesPerIteration",
        "iterationPeriod", "commFraction", "offset");
    private static final Set<String> FLOW_KEYS = Set.of("id", "src", "dst", "bytes", "start", "repeat", "via");
    private static final Set<String> PIN_KEYS = Set.of("src", "dst", "via");
    private static final Set<String> FAULT_KEYS = Set.of("id", "type", "target", "start", "end");

    private ScenarioParser() {
    }

    public static Scenario parse(final Path file) {
        final String text;
        try {
            text = read(file);
        } catch (IOException e) {
            throw new ScenarioException("cannot read scenario " + file + ": " + e.getMessage());
        }
        try {
            return parse(tree(text), file.toAbsolutePath().getParent());
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /** The scenario's YAML as a mutable tree, for callers (what-if) that change a setting before parsing. */
    public static ObjectNode tree(final String yaml) {
        if (yaml.length() > MAX_CHARS) {
            throw new ScenarioException(tooLarge(yaml.length(), "characters"));
        }
        try {
            final JsonNode root = YAML.readTree(yaml);
            if (root == null || !root.isObject()) {
                throw new ScenarioException("a scenario must be a YAML mapping with name, fabric and jobs");
            }
            return (ObjectNode) root;
        } catch (JsonProcessingException e) {
            throw new ScenarioException("not valid YAML: " + e.getOriginalMessage().replaceAll("\\s+", " "));
        }
    }

    public static ObjectNode tree(final Path file) {
        try {
            return tree(read(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read scenario " + file, e);
        }
    }

    /**
     * The largest scenario read, in characters: real ones are a few KB, and the YAML parser slows down
     * quadratically on a long scalar (a 12 MB line took 50 s to reject), so a wrong file fails at once.
     */
    static final int MAX_CHARS = 1 << 20;

    private static String read(final Path file) throws IOException {
        final long size = Files.size(file);
        if (size > 4L * MAX_CHARS) { // at most four bytes a character: surely too large, so do not even read it
            throw new ScenarioException(tooLarge(size, "bytes"));
        }
        return Files.readString(file);
    }

    private static String tooLarge(final long size, final String unit) {
        return String.format(Locale.ROOT, "a scenario of %,d %s is too large (at most %,d characters): is this"
            + " the right file?", size, unit, MAX_CHARS);
    }

    /** Parses a tree; {@code baseDir} resolves a relative {@code fabric.file}. */
    public static Scenario parse(final JsonNode root, final Path baseDir) {
        checkKeys(root, TOP_KEYS, "");
        final String name = text(root, "name", "scenario");
        final long seed = root.path("seed").asLong(Scenario.DEFAULT_SEED);
        final Duration duration = duration(root, "duration", "300s");
        final Duration interval = duration(root, "sampleInterval", "1s");
        final Instant epoch;
        try {
            epoch = root.hasNonNull("epoch") ? Instant.parse(root.get("epoch").asText()) : Scenario.DEFAULT_EPOCH;
        } catch (DateTimeParseException e) {
            throw new ScenarioException("epoch: expected ISO-8601 such as 2025-01-01T00:00:00Z, was '" + root.get("epoch").asText() + "'");
        }
        final Technology defaultTech = root.hasNonNull("technology")
            ? wrap("technology", () -> Technology.parse(root.get("technology").asText())) : Technology.ROCE_V2;
        final FabricSpec fabric = fabric(root.path("fabric"), baseDir, defaultTech);
        wrap("fabric", () -> {
            FabricSpec.requireBuildable(fabric);
            return fabric;
        });
        if (duration.toMillis() / Math.max(1, interval.toMillis()) > MAX_ROUNDS) {
            throw new ScenarioException(String.format(Locale.ROOT, "duration: %s is %,d sampling rounds of %s "
                + "(at most %,d, a year at 1 s)", root.path("duration").asText(), duration.toMillis() / interval.toMillis(),
                root.path("sampleInterval").asText("1s"), MAX_ROUNDS));
        }
        final Routing routing = routing(root.path("routing"), seed);
        final List<JobSpec> jobs = jobs(root.path("jobs"));
        final List<FaultSpec> faults = faults(root.path("faults"), duration);
        final TelemetryProfile telemetry = telemetry(root.path("telemetry"));
        final Transport transport = root.hasNonNull("transport")
            ? wrap("transport", () -> Transport.parse(root.get("transport").asText())) : Transport.ECN;
        final List<FlowSpec> flows = flows(root.path("flows"), duration);
        final List<PinSpec> pins = pins(root.path("pins"));
        return wrap("scenario", () -> new Scenario(name, seed, duration, interval, epoch, fabric, routing, jobs, faults,
            telemetry, transport, flows, pins));
    }

    /** The most sampling rounds a scenario may run: a year of 1 s samples; more is a typo (or a full disk). */
    static final long MAX_ROUNDS = 366L * 24 * 3600;

    private static FabricSpec fabric(final JsonNode f, final Path baseDir, final Technology defaultTech) {
        if (f.isMissingNode() || !f.isObject()) {
            throw new ScenarioException("fabric: required, e.g. {kind: spine-leaf, spines: 4, leaves: 8, hostsPerLeaf: 4}");
        }
        checkKeys(f, FABRIC_KEYS, "fabric.");
        final Technology tech = f.hasNonNull("technology")
            ? wrap("fabric.technology", () -> Technology.parse(f.get("technology").asText())) : defaultTech;
        if (f.hasNonNull("file")) {
            final Path p = baseDir == null ? Path.of(f.get("file").asText()) : baseDir.resolve(f.get("file").asText());
            return new FabricFileSpec(p, tech);
        }
        final double linkSpeed = speed(f, "linkSpeed", "400G");
        final double hostLinkSpeed = f.hasNonNull("hostLinkSpeed") ? speed(f, "hostLinkSpeed", "400G") : linkSpeed;
        final String kind = text(f, "kind", "spine-leaf");
        return wrap("fabric", () -> switch (kind) {
            case "spine-leaf" -> new SpineLeaf(integer(f, "spines", 4), integer(f, "leaves", 8), integer(f, "hostsPerLeaf", 4),
                integer(f, "nicsPerHost", 1), linkSpeed, hostLinkSpeed, tech);
            case "fat-tree" -> {
                final int k = integer(f, "k", 4);
                final FatTree base = FatTree.kAry(k, integer(f, "nicsPerHost", 1), linkSpeed, hostLinkSpeed, tech);
                yield new FatTree(integer(f, "pods", base.pods()), integer(f, "leavesPerPod", base.leavesPerPod()),
                    integer(f, "spinesPerPod", base.spinesPerPod()), integer(f, "cores", base.cores()),
                    integer(f, "hostsPerLeaf", base.hostsPerLeaf()), base.nicsPerHost(), linkSpeed, hostLinkSpeed,
                    f.hasNonNull("coreLinkSpeed") ? speed(f, "coreLinkSpeed", "400G") : linkSpeed, tech);
            }
            case "rail-optimized" -> {
                final int hosts = integer(f, "hosts", 32);
                final int group = integer(f, "hostsPerGroup", Math.min(hosts, 32));
                yield new RailOptimized(hosts, integer(f, "nicsPerHost", 8), group, integer(f, "spines", group),
                    linkSpeed, hostLinkSpeed, tech);
            }
            default -> throw new IllegalArgumentException("kind: unknown fabric kind '" + kind
                + "' (expected spine-leaf, fat-tree, rail-optimized, or file: PATH)");
        });
    }

    private static Routing routing(final JsonNode r, final long seed) {
        if (r.isMissingNode() || r.isNull()) {
            return Routing.ecmp(seed);
        }
        if (r.isTextual()) {
            return new Routing(wrap("routing", () -> Routing.Mode.parse(r.asText())), seed, false);
        }
        checkKeys(r, Set.of("mode", "hashSeed", "sameSeedEverywhere"), "routing.");
        return new Routing(wrap("routing.mode", () -> Routing.Mode.parse(text(r, "mode", "ecmp"))),
            r.path("hashSeed").asLong(seed), r.path("sameSeedEverywhere").asBoolean(false));
    }

    private static TelemetryProfile telemetry(final JsonNode t) {
        final TelemetryProfile d = TelemetryProfile.defaults();
        if (t.isMissingNode() || t.isNull()) {
            return d;
        }
        checkKeys(t, Set.of("counterBits", "clockSkew", "jitter", "lossRate", "lateRate", "reboots", "gaugeNoise",
            "phaseDrift", "reality", "draw"), "telemetry.");
        final int draw = realityDraw(t);
        return wrap("telemetry", () -> new TelemetryProfile(integer(t, "counterBits", d.counterBits()),
            t.hasNonNull("clockSkew") ? Units.parseDuration(t.get("clockSkew").asText()).toMillis() : d.clockSkewMs(),
            t.hasNonNull("jitter") ? Units.parseDuration(t.get("jitter").asText()).toMillis() : d.jitterMs(),
            t.path("lossRate").asDouble(d.lossRate()), t.path("lateRate").asDouble(d.lateRate()),
            integer(t, "reboots", d.reboots()), t.path("gaugeNoise").asDouble(d.gaugeNoise()),
            t.path("phaseDrift").asDouble(d.phaseDrift()), draw));
    }

    /** {@code reality: fixed} (default) is draw 0; {@code reality: randomized} is draw {@code draw} (default 1). */
    private static int realityDraw(final JsonNode t) {
        final String reality = t.path("reality").asText("fixed");
        if (reality.equals("fixed")) {
            if (t.has("draw")) {
                throw new ScenarioException("telemetry.draw needs telemetry.reality: randomized");
            }
            return 0;
        }
        if (!reality.equals("randomized")) {
            throw new ScenarioException("telemetry.reality must be fixed or randomized, was '" + reality + "'");
        }
        final int draw = t.path("draw").asInt(1);
        if (draw < 1) {
            throw new ScenarioException("telemetry.draw must be >= 1, was " + draw);
        }
        return draw;
    }

    private static List<JobSpec> jobs(final JsonNode jobs) {
        if (jobs.isMissingNode() || jobs.isNull()) {
            return List.of();
        }
        if (!jobs.isArray()) {
            throw new ScenarioException("jobs: expected a list");
        }
        final List<JobSpec> out = new ArrayList<>();
        final Set<String> ids = new HashSet<>();
        for (int i = 0; i < jobs.size(); i++) {
            final JsonNode j = jobs.get(i);
            final String where = "jobs[" + i + "]";
            checkKeys(j, JOB_KEYS, where + ".");
            final List<String> hostList = new ArrayList<>();
            j.path("hostList").forEach(h -> hostList.add(h.asText()));
            final String id = text(j, "id", "job-" + i);
            if (!ids.add(id)) {
                throw new ScenarioException(where + ".id: duplicate job id '" + id + "'");
            }
            out.add(wrap(where, () -> new JobSpec(id, j.path("hosts").asInt(hostList.size()), hostList,
                Pattern.parse(text(j, "pattern", "ring-allreduce")), Units.parseBytes(text(j, "bytesPerIteration", "1GB")),
                Units.parseDuration(text(j, "iterationPeriod", "1s")), j.path("commFraction").asDouble(0.3),
                integer(j, "offset", 1))));
        }
        return out;
    }

    /** {@code flows:}: each names its ends and size; a flow is named in errors by its place and its id. */
    private static List<FlowSpec> flows(final JsonNode flows, final Duration scenarioDuration) {
        final List<FlowSpec> out = new ArrayList<>();
        final Set<String> ids = new HashSet<>();
        for (int i = 0; i < list(flows, "flows").size(); i++) {
            final JsonNode f = flows.get(i);
            checkKeys(f, FLOW_KEYS, "flows[" + i + "].");
            final String id = scalar(f, "id", "flows[" + i + "]", "flow-" + i);
            final String where = "flows[" + i + "] (" + id + ")";
            if (!ids.add(id)) {
                throw new ScenarioException(where + ".id: duplicate flow id '" + id + "'");
            }
            final String src = scalar(f, "src", where, null);
            final String dst = scalar(f, "dst", where, null);
            final long bytes = f.path("bytes").isNumber() ? f.get("bytes").asLong()
                : wrap(where + ".bytes", () -> Units.parseBytes(scalar(f, "bytes", where, null)));
            final Duration start = wrap(where + ".start", () -> Units.parseDuration(scalar(f, "start", where, "0s")));
            final Duration repeat = wrap(where + ".repeat", () -> Units.parseDuration(scalar(f, "repeat", where, "0s")));
            if (start.compareTo(scenarioDuration) >= 0) {
                throw new ScenarioException(where + ".start: " + f.get("start").asText() + " is not before the scenario's end ("
                    + seconds(scenarioDuration) + ")");
            }
            if (f.hasNonNull("repeat") && repeat.isZero()) {
                throw new ScenarioException(where + ".repeat: must be > 0, was '" + f.get("repeat").asText() + "'");
            }
            out.add(wrap(where, () -> new FlowSpec(id, src, dst, bytes, start, repeat, nullableScalar(f, "via", where))));
        }
        return out;
    }

    /** {@code pins:}: every flow between two NICs crosses a named switch. */
    private static List<PinSpec> pins(final JsonNode pins) {
        final List<PinSpec> out = new ArrayList<>();
        for (int i = 0; i < list(pins, "pins").size(); i++) {
            final JsonNode p = pins.get(i);
            final String where = "pins[" + i + "]";
            checkKeys(p, PIN_KEYS, where + ".");
            out.add(new PinSpec(scalar(p, "src", where, null), scalar(p, "dst", where, null), scalar(p, "via", where, null)));
        }
        return out;
    }

    private static String seconds(final Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** A top-level list, or an empty one when absent. */
    private static JsonNode list(final JsonNode node, final String key) {
        if (node.isMissingNode() || node.isNull()) {
            return YAML.createArrayNode();
        }
        if (!node.isArray()) {
            throw new ScenarioException(key + ": expected a list");
        }
        return node;
    }

    /** A scalar field as text; required when {@code dflt} is null. */
    private static String scalar(final JsonNode n, final String field, final String where, final String dflt) {
        final String value = nullableScalar(n, field, where);
        if (value == null && dflt == null) {
            throw new ScenarioException(where + "." + field + ": required");
        }
        return value == null ? dflt : value;
    }

    private static String nullableScalar(final JsonNode n, final String field, final String where) {
        if (!n.hasNonNull(field)) {
            return null;
        }
        if (!n.get(field).isValueNode() || n.get(field).asText().isBlank()) {
            throw new ScenarioException(where + "." + field + ": expected a value, was '" + n.get(field) + "'");
        }
        return n.get(field).asText();
    }

    private static List<FaultSpec> faults(final JsonNode faults, final Duration scenarioDuration) {
        if (faults.isMissingNode() || faults.isNull()) {
            return List.of();
        }
        if (!faults.isArray()) {
            throw new ScenarioException("faults: expected a list");
        }
        final List<FaultSpec> out = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            final JsonNode f = faults.get(i);
            final String where = "faults[" + i + "]";
            final FaultType type = wrap(where + ".type", () -> FaultType.parse(text(f, "type", "")));
            final Map<String, Double> params = new HashMap<>();
            for (final Iterator<Map.Entry<String, JsonNode>> it = f.fields(); it.hasNext();) {
                final var e = it.next();
                if (!FAULT_KEYS.contains(e.getKey())) {
                    if (!e.getValue().isNumber()) {
                        throw new ScenarioException(where + "." + e.getKey() + ": expected a number");
                    }
                    params.put(e.getKey(), e.getValue().asDouble());
                }
            }
            final JsonNode t = f.path("target");
            if (!t.isObject()) {
                throw new ScenarioException(where + ".target: required, e.g. {device: leaf-2, peer: spine-1}");
            }
            checkKeys(t, Set.of("device", "port", "peer", "job"), where + ".target.");
            final String id = text(f, "id", "fault-" + i);
            out.add(wrap(where, () -> new FaultSpec(id, type,
                new FaultTarget(nullable(t, "device"), nullable(t, "port"), nullable(t, "peer"), nullable(t, "job")),
                Units.parseDuration(text(f, "start", "0s")),
                f.hasNonNull("end") ? Units.parseDuration(f.get("end").asText()) : scenarioDuration, params)));
        }
        return out;
    }

    private static void checkKeys(final JsonNode node, final Set<String> allowed, final String prefix) {
        if (!node.isObject()) {
            throw new ScenarioException(prefix.isEmpty() ? "expected a mapping" : prefix.substring(0, prefix.length() - 1)
                + ": expected a mapping");
        }
        for (final Iterator<String> it = node.fieldNames(); it.hasNext();) {
            final String key = it.next();
            if (!allowed.contains(key)) {
                throw new ScenarioException(prefix + key + ": unknown key (known: " + new TreeSet<>(allowed) + ")");
            }
        }
    }

    private static String text(final JsonNode n, final String field, final String dflt) {
        return n.hasNonNull(field) ? n.get(field).asText() : dflt;
    }

    private static String nullable(final JsonNode n, final String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    private static int integer(final JsonNode n, final String field, final int dflt) {
        if (!n.hasNonNull(field)) {
            return dflt;
        }
        if (!n.get(field).canConvertToInt()) {
            throw new IllegalArgumentException(field + ": expected a whole number, was '" + n.get(field).asText() + "'");
        }
        return n.get(field).asInt();
    }

    private static double speed(final JsonNode n, final String field, final String dflt) {
        return wrap("fabric." + field, () -> n.hasNonNull(field) && n.get(field).isNumber()
            ? n.get(field).asDouble() : Units.parseBitRate(text(n, field, dflt)));
    }

    private static Duration duration(final JsonNode n, final String field, final String dflt) {
        return wrap(field, () -> Units.parseDuration(text(n, field, dflt)));
    }

    private static <T> T wrap(final String where, final Supplier<T> parse) {
        try {
            return parse.get();
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(where + ": " + e.getMessage());
        }
    }
}
