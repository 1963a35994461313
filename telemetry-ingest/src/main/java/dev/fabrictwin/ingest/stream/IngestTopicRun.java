package dev.fabrictwin.ingest.stream;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.streams.KafkaStreams;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.ingest.IngestStats;

/**
 * {@code ingest --from-topic} from start to end: the topics created and the principal's access to the ones it writes
 * checked, {@link IngestTopicApp} run until a stop is asked for, the input has been idle long enough, or Kafka Streams
 * stops itself. The command only parses its options and calls {@link #run}.
 */
public final class IngestTopicRun {

    /** How the run is asked to stop (a signal handler's latch, in the CLI). */
    public interface Stop {
        boolean requested();

        /** Returns after {@code pace} or at a stop request, whichever comes first. */
        void await(Duration pace);
    }

    private static final Duration PACE = Duration.ofMillis(200);

    private IngestTopicRun() {
    }

    /**
     * Runs {@code settings}' ingest until {@code stop} asks, or ({@code stopWhenIdle} not null) no message arrived for
     * that long; {@code out} gets the one line saying what runs. Empty when it ended so, else the reason Kafka Streams
     * stopped (a refusal by the broker's ACLs, a full state disk, a failure replacing threads cannot cure).
     */
    public static Optional<String> run(final Properties client, final IngestTopicSettings settings, final IngestStats stats,
                                       final Duration stopWhenIdle, final Stop stop, final PrintWriter out) {
        final Topics topics = settings.topics();
        TopicSetup.ensureWithAccess(client, topics, List.of(), List.of(topics.samples().name(), topics.deadLetter().name()));
        try (IngestTopicApp app = IngestTopicApp.start(client, settings, stats)) {
            out.println("ingest: reading " + settings.sourceTopic() + " as " + settings.format() + " (application id "
                + settings.applicationId() + ") into " + topics.samples().name() + "; Ctrl-C stops");
            out.flush();
            long seen = -1;
            long lastChange = System.nanoTime();
            while (!stop.requested() && app.state() != KafkaStreams.State.ERROR) {
                final long now = stats.records();
                if (now != seen) {
                    seen = now;
                    lastChange = System.nanoTime();
                } else if (stopWhenIdle != null && System.nanoTime() - lastChange >= stopWhenIdle.toNanos()) {
                    break;
                }
                stop.await(PACE);
            }
            if (app.state() == KafkaStreams.State.ERROR) {
                return Optional.of("Kafka Streams stopped (ERROR" + app.failure().map(f -> ": " + f)
                    .orElse("; the log says why") + ")");
            }
            return Optional.empty();
        }
    }
}
