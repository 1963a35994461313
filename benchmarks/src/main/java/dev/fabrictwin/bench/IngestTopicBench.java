package dev.fabrictwin.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.evaluation.harness.TempDirs;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.stream.IngestTopicApp;
import dev.fabrictwin.ingest.stream.IngestTopicSettings;
import dev.fabrictwin.kafka.common.CheckedSends;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;

/**
 * {@code bench ingest-topic}: messages/s of {@code ingest --from-topic} (gnmic event messages → canonical samples,
 * exactly-once v2) against a plain {@code KafkaConsumer} reading the same topic, one run each on one embedded broker.
 * The app is timed from its first processed message until its committed offsets reach the topic's end, i.e. until
 * every sample is readable by a read_committed consumer. Each also prints the process's CPU time a message over the
 * same span (broker included, as both share it): on a shared machine the rates follow what the scheduler gives, the
 * CPU cost a message much less so. Last, the floor under ingest: Kafka Streams with ingest's settings copying the
 * messages unparsed to another topic, timed the same way.
 */
public final class IngestTopicBench {

    static final int MESSAGES = 200_000;
    private static final int PARTITIONS = 6;

    private IngestTopicBench() {
    }

    /** A gnmic event message (the shape of gnmic's docs, event_strings.md) for one port's counters. */
    static byte[] gnmicEvent(final int i) {
        return ("{\"name\":\"default\",\"timestamp\":" + (1_785_000_000_000_000_000L + i * 1_000_000L)
            + ",\"tags\":{\"interface_name\":\"ethernet-1/" + (i % 64) + "\",\"source\":\"leaf-" + (i % 32)
            + ":57400\",\"subscription-name\":\"default\"},\"values\":{"
            + "\"/srl_nokia-interfaces:interface/statistics/in-octets\":\"" + (65_382_630L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/out-octets\":\"" + (64_721_394L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/in-unicast-packets\":\"" + (107_154L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/out-unicast-packets\":\"" + (105_876L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/in-fcs-error-packets\":\"0\"}}").getBytes(StandardCharsets.UTF_8);
    }

    public static Map<String, Double> run(final Consumer<String> progress) throws Exception {
        final Map<String, Double> out = new LinkedHashMap<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.startSingleBroker()) {
            final Properties client = new Properties();
            client.put("bootstrap.servers", kafka.bootstrapServers());
            final Topics topics = new Topics("bench.");
            TopicSetup.ensure(client, topics);
            final String source = "bench.gnmic-events";
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic(source, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            }
            produce(client, source);
            progress.accept(String.format(Locale.ROOT, "input: %d gnmic event messages on %d partitions", MESSAGES, PARTITIONS));
            // each reads the topic twice, in turn, and the second pass is the figure: the first one of 200k messages
            // (6-10 s) spent more CPU on compiling the code than on running it (JFR: 3.6 s of C2 in a 6 s pass), a
            // start-up cost a running ingest pays once. The first pass's figures are printed as the cold ones.
            final Rate plainCold = plainConsumerPerSec(client, source, "bench-plain-ingest-topic-cold");
            final Rate appCold = ingestPerSec(client, topics, source, "bench-ingest-topic-cold");
            progress.accept(String.format(Locale.ROOT, "cold (first pass, JIT compiling): plain consumer %.0f messages/s, "
                + "ingest --from-topic %.0f messages/s (%.0f %%)", plainCold.perSec(), appCold.perSec(),
                100 * appCold.perSec() / plainCold.perSec()));
            final Rate plain = plainConsumerPerSec(client, source, "bench-plain-ingest-topic");
            progress.accept(String.format(Locale.ROOT, "plain consumer: %.0f messages/s, %.1f us CPU a message",
                plain.perSec(), plain.cpuMicros()));
            final Rate app = ingestPerSec(client, topics, source, "bench-ingest-topic");
            progress.accept(String.format(Locale.ROOT, "ingest --from-topic: %.0f messages/s (%.0f %% of the plain consumer), "
                + "%.1f us CPU a message", app.perSec(), 100 * app.perSec() / plain.perSec(), app.cpuMicros()));
            final Rate floor = passThroughPerSec(client, topics, source, "bench-ingest-topic-pass-through");
            progress.accept(String.format(Locale.ROOT, "the floor, Kafka Streams copying the messages unparsed with "
                + "ingest's settings: %.0f messages/s (%.0f %% of the plain consumer), %.1f us CPU a message; ingest "
                + "--from-topic at %.0f %% of it", floor.perSec(), 100 * floor.perSec() / plain.perSec(),
                floor.cpuMicros(), 100 * app.perSec() / floor.perSec()));
            out.put("ingestTopicMessagesPerSec", app.perSec());
            out.put("plainConsumerMessagesPerSec", plain.perSec());
            out.put("ingestTopicRatioVsPlainConsumer", app.perSec() / plain.perSec());
            out.put("ingestTopicCpuMicrosPerMessage", app.cpuMicros());
            out.put("plainConsumerCpuMicrosPerMessage", plain.cpuMicros());
            out.put("passThroughMessagesPerSec", floor.perSec());
            out.put("passThroughRatioVsPlainConsumer", floor.perSec() / plain.perSec());
            out.put("passThroughCpuMicrosPerMessage", floor.cpuMicros());
            out.put("ingestTopicRatioVsPassThrough", app.perSec() / floor.perSec());
            out.put("ingestTopicColdMessagesPerSec", appCold.perSec());
            out.put("plainConsumerColdMessagesPerSec", plainCold.perSec());
            out.put("ingestTopicColdRatioVsPlainConsumer", appCold.perSec() / plainCold.perSec());
        }
        return out;
    }

    /** Messages a second over the timed span, and the process's CPU microseconds a message over it. */
    private record Rate(double perSec, double cpuMicros) {
        static Rate of(final long messages, final long nanos, final long cpuNanos) {
            return new Rate(messages / (nanos / 1e9), cpuNanos / 1e3 / messages);
        }
    }

    private static long processCpuNanos() {
        return ThreadCpu.processNanos();
    }

    private static void produce(final Properties client, final String topic) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put("linger.ms", 20);
        p.put("batch.size", 256 * 1024);
        try (var producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            final CheckedSends<byte[], byte[]> sends = new CheckedSends<>(producer);
            for (int i = 0; i < MESSAGES; i++) {
                sends.send(new ProducerRecord<>(topic, null, gnmicEvent(i)));
            }
            sends.flush();
        }
    }

    private static Rate plainConsumerPerSec(final Properties client, final String topic, final String group) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long count = 0;
            long first = 0;
            long firstCpu = 0;
            long checksum = 0;
            final long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (count < MESSAGES && System.nanoTime() < deadline) {
                for (final var r : consumer.poll(Duration.ofMillis(200))) {
                    if (count == 0) {
                        first = System.nanoTime();
                        firstCpu = processCpuNanos();
                    }
                    count++;
                    checksum += r.value().length; // every message touched, as a reader would
                }
            }
            final long last = System.nanoTime();
            return checksum > 0 && last > first ? Rate.of(count, last - first, processCpuNanos() - firstCpu) : new Rate(0, 0);
        }
    }

    private static Rate ingestPerSec(final Properties client, final Topics topics, final String source, final String appId)
            throws Exception {
        final IngestStats stats = new IngestStats();
        final Path stateDir = Files.createTempDirectory("bench-ingest-topic");
        try (Admin admin = Admin.create(client);
             IngestTopicApp app = IngestTopicApp.start(withStateDir(client, stateDir), settings(topics, source, appId),
                 stats)) {
            final Rate rate = untilCommitted(admin, appId, source, stats::records, "ingest --from-topic", stats::summary);
            if (stats.samples() != MESSAGES) {
                throw new IllegalStateException("expected " + MESSAGES + " samples, got " + stats.summary());
            }
            return rate;
        } finally {
            TempDirs.delete(stateDir);
        }
    }

    /**
     * The floor under any consume-transform-produce app on this broker: Kafka Streams with ingest's settings
     * ({@link IngestTopicApp#streamsConfig}: exactly-once v2, its commit interval) copying each message's bytes to
     * another topic, no parsing, timed as ingest is.
     */
    private static Rate passThroughPerSec(final Properties client, final Topics topics, final String source,
                                          final String appId) throws Exception {
        final String copies = source + ".copies";
        final AtomicLong copied = new AtomicLong();
        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream(source, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
            .peek((key, value) -> copied.incrementAndGet())
            .to(copies, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        final Path stateDir = Files.createTempDirectory("bench-ingest-topic");
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(copies, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            final KafkaStreams streams = new KafkaStreams(builder.build(),
                IngestTopicApp.streamsConfig(withStateDir(client, stateDir), settings(topics, source, appId)));
            try {
                streams.start();
                return untilCommitted(admin, appId, source, copied::get, "the pass-through",
                    () -> copied.get() + " messages copied");
            } finally {
                streams.close(Duration.ofSeconds(30));
            }
        } finally {
            TempDirs.delete(stateDir);
        }
    }

    private static Properties withStateDir(final Properties client, final Path stateDir) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put("state.dir", stateDir.toString());
        return p;
    }

    private static IngestTopicSettings settings(final Topics topics, final String source, final String appId) {
        return new IngestTopicSettings(source, "gnmic", topics, appId,
            ParseContext.defaults(Clock.systemUTC()).withoutTimeWindow());
    }

    /**
     * Times an app from its first processed message until its group's committed offsets reach the end of
     * {@code source} (every output readable by a read_committed consumer), with the process's CPU over the same span.
     */
    private static Rate untilCommitted(final Admin admin, final String group, final String source,
                                       final LongSupplier processed, final String what,
                                       final Supplier<String> summary) throws Exception {
        final long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        long first = 0;
        long firstCpu = 0;
        while (System.nanoTime() < deadline) {
            if (first == 0 && processed.getAsLong() > 0) {
                first = System.nanoTime();
                firstCpu = processCpuNanos();
            }
            if (processed.getAsLong() >= MESSAGES && committed(admin, group, source) >= MESSAGES) {
                return Rate.of(MESSAGES, System.nanoTime() - first, processCpuNanos() - firstCpu);
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling the app's progress, with a deadline
        }
        throw new IllegalStateException(what + " did not finish in 5 minutes: " + summary.get());
    }

    /** Messages of {@code topic} the group has committed (its offsets summed over partitions). */
    private static long committed(final Admin admin, final String group, final String topic) throws Exception {
        final Map<TopicPartition, OffsetAndMetadata> offsets =
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        final Map<TopicPartition, OffsetSpec> ends = new LinkedHashMap<>();
        offsets.keySet().stream().filter(tp -> tp.topic().equals(topic)).forEach(tp -> ends.put(tp, OffsetSpec.latest()));
        if (ends.size() < PARTITIONS) {
            return 0;
        }
        // under exactly-once the committed offset sits past the transaction marker: count a partition done at its end
        final var latest = admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
        long done = 0;
        for (final TopicPartition tp : ends.keySet()) {
            if (offsets.get(tp) == null || offsets.get(tp).offset() < latest.get(tp).offset()) {
                return 0;
            }
            done += latest.get(tp).offset();
        }
        return done;
    }
}
