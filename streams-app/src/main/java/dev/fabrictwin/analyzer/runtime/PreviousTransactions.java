package dev.fabrictwin.analyzer.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Ends what a previous run of this instance left in flight before Kafka Streams restores anything. A run killed
 * while committing leaves its threads' transactions open or half-written (committed at the coordinator, markers not
 * yet on every partition). Kafka Streams restores a task's stores up to what is readable at that moment, and a task
 * can land on another thread than the one whose producer (transactional id {@code <application>-<process>-<thread>})
 * owns that transaction, so nothing completes it first: the chaos test saw a partition's stored samples 5-6 s behind
 * the intervals it had already committed (an interval sent again over them), and the other way round.
 * Calling {@code initTransactions} under each thread's transactional id makes the coordinator finish every such
 * transaction, commit or abort, before the new run reads a changelog: Kafka's own fencing, done up front.
 */
final class PreviousTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(PreviousTransactions.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where Kafka Streams keeps the instance's process id (stable across restarts with a persistent store). */
    static final String PROCESS_FILE = "kafka-streams-process-metadata";
    /** Replaced stream threads take the next indexes: cover a few beyond the configured count. */
    static final int EXTRA_THREADS = 3;

    private PreviousTransactions() {
    }

    /** The process id a previous run of this instance used, if any (first start, or no state directory: none). */
    static String previousProcessId(final Properties streamsConfig) {
        final Object dir = streamsConfig.get(StreamsConfig.STATE_DIR_CONFIG);
        final Path file = Path.of(dir == null ? System.getProperty("java.io.tmpdir") + "/kafka-streams" : dir.toString(),
            String.valueOf(streamsConfig.get(StreamsConfig.APPLICATION_ID_CONFIG)), PROCESS_FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            final JsonNode id = JSON.readTree(file.toFile()).get("processId");
            return id == null || id.asText().isBlank() ? null : id.asText();
        } catch (IOException e) {
            LOG.warn("cannot read {} ({}): transactions a previous run left open end by their timeout", file, e.getMessage());
            return null;
        }
    }

    /** The transactional ids of a run with this process id and {@code threads} stream threads (exactly-once v2). */
    static List<String> transactionalIds(final String applicationId, final String processId, final int threads) {
        final List<String> ids = new ArrayList<>();
        for (int thread = 1; thread <= threads + EXTRA_THREADS; thread++) {
            ids.add(applicationId + "-" + processId + "-" + thread);
        }
        return ids;
    }

    /** Completes every transaction the previous run of this instance left open; nothing on a first start. */
    static void complete(final Properties streamsConfig, final Properties producerConfig) {
        final String processId = previousProcessId(streamsConfig);
        if (processId == null) {
            return;
        }
        final long start = System.nanoTime();
        final Object threads = streamsConfig.getOrDefault(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        final List<String> ids = transactionalIds(String.valueOf(streamsConfig.get(StreamsConfig.APPLICATION_ID_CONFIG)),
            processId, Integer.parseInt(threads.toString()));
        // all at once: each waits on its coordinator (a restart waits for the slowest, not for their sum)
        final List<CompletableFuture<Void>> ended = ids.stream()
            .map(id -> CompletableFuture.runAsync(() -> end(id, producerConfig),
                command -> new Thread(command, "previous-transactions-" + id).start()))
            .toList();
        try {
            CompletableFuture.allOf(ended.toArray(new CompletableFuture[0])).join();
        } catch (CompletionException e) {
            // no worse than before: Kafka Streams' own producers fence it, or the coordinator's timeout ends it
            LOG.warn("cannot end the transactions of this instance's previous run: {}; they end by their timeout",
                e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
            return;
        }
        LOG.info("transactions of this instance's previous run ended ({} transactional ids) in {} ms", ids.size(),
            (System.nanoTime() - start) / 1_000_000);
    }

    /** Fences {@code id}: its coordinator ends whatever transaction the previous run left under it. */
    private static void end(final String id, final Properties producerConfig) {
        final Properties p = new Properties();
        p.putAll(producerConfig);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.close(Duration.ZERO);
        }
    }
}
