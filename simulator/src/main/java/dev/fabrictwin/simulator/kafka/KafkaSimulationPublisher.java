package dev.fabrictwin.simulator.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.contract.truth.TruthJson;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.kafka.common.CheckedSends;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.workload.JobJson;

/**
 * {@code simulate --bootstrap}: publishes the topology and jobs to their compacted topics first, the injected
 * faults to {@code sim.truth}, then the samples, either as fast as possible or paced to simulated time.
 */
public final class KafkaSimulationPublisher {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KafkaSimulationPublisher() {
    }

    /**
     * Returns the samples published, one canonical sample per record keyed by device (docs/contracts.md).
     * {@code realtime} paces delivery to the samples' own clock.
     */
    public static long publish(final SyntheticCluster cluster, final Properties clientConfig, final Topics topics,
                               final boolean realtime, final LongConsumer progress) {
        return publish(cluster, clientConfig, topics, realtime ? 1.0 : 0.0, progress);
    }

    /**
     * As above, paced at {@code speed} simulated seconds per wall-clock second (1 = real time; 0 = as fast as
     * possible). Interrupting the calling thread stops publication with a {@link java.util.concurrent.CancellationException}.
     */
    public static long publish(final SyntheticCluster cluster, final Properties clientConfig, final Topics topics,
                               final double speed, final LongConsumer progress) {
        if (!(speed >= 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be >= 0 (0 = as fast as possible), got " + speed);
        }
        final boolean realtime = speed > 0;
        TopicSetup.ensure(clientConfig, topics);
        try (Producer<String, byte[]> producer = new KafkaProducer<>(ProducerSettings.telemetry(clientConfig))) {
            // every send is checked: a refused topology, job or truth record (no ACL for its topic, over the record
            // limit) fails the command with its topic and reason instead of leaving the analyzer without it
            final CheckedSends<String, byte[]> sends = new CheckedSends<>(producer);
            // one producer of encoded values for every topic (the samples go out pre-encoded): each record encoded
            // by its topic's serde
            sends.send(topics.topology().encoded(cluster.fabric().id(),
                TopologyDocument.of(SimulationFiles.topologyJson(cluster).getBytes(StandardCharsets.UTF_8))));
            for (final var job : cluster.twin().jobs()) {
                sends.send(topics.jobs().encoded(job.id(), JobDocument.of(bytes(JobJson.toJson(job, MAPPER)))));
            }
            for (final TruthRecord t : cluster.truth()) {
                sends.send(new ProducerRecord<>(topics.truth().name(), t.id(), TruthJson.write(t)));
            }
            sends.flush();
            final long wallStart = System.nanoTime();
            final long simStart = cluster.scenario().epoch().toEpochMilli();
            final TopicSpec<String, Sample> samples = topics.samples();
            final Serializer<Sample> values = samples.valueSerde().serializer();
            final long published = cluster.run(sample -> {
                // an interrupt means "stop": consumed here (not left set) so the producer below still closes cleanly
                if (Thread.interrupted()) {
                    throw new CancellationException("publication stopped");
                }
                final long wallElapsedMs = realtime ? (long) ((sample.ts() - simStart) / speed) : 0;
                if (realtime && due(wallStart, wallElapsedMs) > 0) {
                    pace(wallStart, wallElapsedMs);
                }
                sends.send(new ProducerRecord<>(samples.name(), sample.device(), values.serialize(samples.name(), sample)));
            }, progress);
            sends.flush();
            return published;
        }
    }

    /** Nanoseconds until the wall clock has advanced this far (≤ 0: due). */
    private static long due(final long wallStartNanos, final long wallElapsedMillis) {
        return wallStartNanos + TimeUnit.MILLISECONDS.toNanos(wallElapsedMillis) - System.nanoTime();
    }

    /** Holds a sample until the wall clock has advanced as far as (scaled) simulated time has. */
    private static void pace(final long wallStartNanos, final long wallElapsedMillis) {
        final long due = wallStartNanos + TimeUnit.MILLISECONDS.toNanos(wallElapsedMillis);
        final long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait); // pacing to simulated time, not waiting on Kafka
            } catch (InterruptedException e) {
                // the interrupt is the caller's stop request, answered by cancelling; not re-set, so that closing
                // the producer (flushing what was sent) is not interrupted too
                throw new CancellationException("publication stopped");
            }
        }
    }

    private static byte[] bytes(final Object json) {
        try {
            return MAPPER.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
