package dev.fabrictwin.contract;

import java.util.List;
import java.util.Objects;

import org.apache.kafka.common.serialization.Serdes;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.job.JobHealthJson;
import dev.fabrictwin.contract.sample.SampleSerde;
import dev.fabrictwin.contract.truth.TruthJson;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Every topic of the wire contract (docs/contracts.md, Topics; the names are a contract) under an optional prefix
 * ({@code --topic-prefix lab.} gives {@code lab.telemetry.samples}). One place for every name, serde and layout, so
 * no module spells a topic itself.
 */
public record Topics(String prefix) {

    public static final Topics DEFAULT = new Topics("");
    /** Partitions of the keyed event topics ({@code telemetry.samples} keyed by device): the unit of scale-out. */
    public static final int PARTITIONS = 6;

    public Topics {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("topic prefix may use letters, digits, '.', '_' and '-' only, was '" + prefix + "'");
        }
    }

    /** The fabric's topology JSON (twin-engine's {@code FabricJson}), keyed by fabric id; latest per key. */
    public TopicSpec<String, TopologyDocument> topology() {
        return new TopicSpec<>(prefix + "fabric.topology", Serdes.String(), TopologyDocument.SERDE, 1,
            TopicSpec.Cleanup.COMPACT, "simulate, or an operator's topology publisher");
    }

    /** A declared job's JSON (twin-engine's {@code JobJson}), keyed by job id; a tombstone ends the job. */
    public TopicSpec<String, JobDocument> jobs() {
        return new TopicSpec<>(prefix + "fabric.jobs", Serdes.String(), JobDocument.SERDE, 1,
            TopicSpec.Cleanup.COMPACT, "simulate, or an operator's scheduler hook");
    }

    /** One canonical sample per record, keyed by device (so a device's samples stay in order). */
    public TopicSpec<String, Sample> samples() {
        return new TopicSpec<>(prefix + "telemetry.samples", Serdes.String(), SampleSerde.INSTANCE, PARTITIONS,
            TopicSpec.Cleanup.DELETE, "ingest, simulate, or any producer of canonical samples");
    }

    /** What could not be read or processed: the raw key and value, with {@link DeadLetter} headers. */
    public TopicSpec<byte[], byte[]> deadLetter() {
        return new TopicSpec<>(prefix + "telemetry.deadletter", Serdes.ByteArray(), Serdes.ByteArray(), PARTITIONS,
            TopicSpec.Cleanup.DELETE, "ingest and analyze");
    }

    /** Alert lifecycle records keyed by alert id: one OPEN, UPDATEs, one RESOLVED. */
    public TopicSpec<String, Alert> alerts() {
        return new TopicSpec<>(prefix + "fabric.alerts", Serdes.String(), AlertJson.SERDE, PARTITIONS,
            TopicSpec.Cleanup.DELETE, "analyze");
    }

    /** Per-tick health of each declared job, keyed by job id. */
    public TopicSpec<String, JobHealth> jobHealth() {
        return new TopicSpec<>(prefix + "fabric.job-health", Serdes.String(), JobHealthJson.SERDE, PARTITIONS,
            TopicSpec.Cleanup.DELETE, "analyze");
    }

    /** Injected faults with their start and end, keyed by fault id: the generator's answer key for scoring. */
    public TopicSpec<String, TruthRecord> truth() {
        return new TopicSpec<>(prefix + "sim.truth", Serdes.String(), TruthJson.SERDE, 1,
            TopicSpec.Cleanup.DELETE, "simulate");
    }

    public List<TopicSpec<?, ?>> all() {
        return List.of(topology(), jobs(), samples(), deadLetter(), alerts(), jobHealth(), truth());
    }
}
