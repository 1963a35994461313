package dev.fabrictwin.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reading a test's output back from Kafka: poll until what was read satisfies a condition, failing with what was
 * read when the time is up. The one wait on records the tests use, so none hand-writes a poll loop with a deadline.
 */
public final class KafkaReads {

    /** How long one poll may block: short, so the condition is checked often and the deadline kept closely. */
    private static final Duration POLL = Duration.ofMillis(200);
    /** How many of the last records a timeout's message shows. */
    private static final int SHOWN = 3;

    private KafkaReads() {
    }

    /**
     * Polls {@code consumer} (subscribed or assigned by the caller) until {@code done} holds for the records read by
     * this call, and returns them in the order read; {@code done} is checked before the first poll too.
     *
     * @throws AssertionError when {@code timeout} passes first, saying which topics, how many records and the last
     *                        few read
     */
    public static <K, V> List<ConsumerRecord<K, V>> readUntil(final Consumer<K, V> consumer,
                                                              final Predicate<? super List<ConsumerRecord<K, V>>> done,
                                                              final Duration timeout) {
        final List<ConsumerRecord<K, V>> read = new ArrayList<>();
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(read)) {
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(timedOut(consumer, read, timeout));
            }
            consumer.poll(Duration.ofNanos(Math.min(left, POLL.toNanos()))).forEach(read::add);
        }
        return read;
    }

    /**
     * Reads {@code topics} from their beginning in a consumer of its own ({@code config}: bootstrap servers, group,
     * isolation) until {@code done} holds for the records read, as {@link #readUntil(Consumer, Predicate, Duration)}.
     */
    public static <K, V> List<ConsumerRecord<K, V>> readUntil(final Map<String, Object> config,
                                                              final Deserializer<K> keys, final Deserializer<V> values,
                                                              final Collection<String> topics,
                                                              final Predicate<? super List<ConsumerRecord<K, V>>> done,
                                                              final Duration timeout) {
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config, keys, values)) {
            consumer.subscribe(topics);
            return readUntil(consumer, done, timeout);
        }
    }

    private static String timedOut(final Consumer<?, ?> consumer, final List<? extends ConsumerRecord<?, ?>> read,
                                   final Duration timeout) {
        final Collection<String> topics = consumer.subscription().isEmpty()
            ? consumer.assignment().stream().map(TopicPartition::topic).distinct().sorted().toList()
            : consumer.subscription().stream().sorted().toList();
        final String last = read.subList(Math.max(0, read.size() - SHOWN), read.size()).stream()
            .map(r -> r.topic() + "-" + r.partition() + "@" + r.offset() + " " + r.key() + "=" + shown(r.value()))
            .collect(Collectors.joining(", ", read.isEmpty() ? "" : "; the last: ", ""));
        return "readUntil: condition still false after " + timeout.toMillis() + " ms; " + read.size()
            + " records read from " + topics + last;
    }

    private static String shown(final Object value) {
        final String text = value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
            : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }
}
