package dev.fabrictwin.ingest.stream;

import java.util.Objects;

import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.format.ParseContext;

/**
 * What {@code ingest --from-topic} reads and how: the collectors' topic, the format its messages are in, the
 * product's topics to write, the Kafka Streams application id (consumer group and transactional id prefix, so a
 * restart with the same id resumes where the last committed transaction ended), and the parse context (device
 * for formats without one, time window; each message's default timestamp is its record's timestamp).
 */
public record IngestTopicSettings(String sourceTopic, String format, Topics topics, String applicationId,
                                  ParseContext context) {

    public static final String DEFAULT_APPLICATION_ID = "fabric-twin-ingest";

    public IngestTopicSettings {
        Objects.requireNonNull(sourceTopic, "sourceTopic");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(context, "context");
        Formats.adapter(format); // an unknown format fails here, before any Kafka client starts
    }

    /** The default application id for a source topic: one consumer group per collectors' topic. */
    public static String defaultApplicationId(final String sourceTopic) {
        return DEFAULT_APPLICATION_ID + "-" + sourceTopic.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
