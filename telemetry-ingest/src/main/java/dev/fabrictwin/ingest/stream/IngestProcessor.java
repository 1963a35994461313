package dev.fabrictwin.ingest.stream;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * One collector message in, its canonical samples out (one record each, keyed by device, to
 * {@link IngestTopology#SAMPLES_SINK}) and each rejected unit of it to {@link IngestTopology#DEAD_LETTER_SINK}: the
 * unit's raw bytes under the message's key, the message's own headers plus the {@link DeadLetter} headers. The format
 * adapter does the parsing; this class only turns its verdicts into records. Every record keeps the source
 * message's timestamp, so retention counts from when the collector wrote it.
 */
final class IngestProcessor implements Processor<byte[], byte[], Object, Object> {

    private final IngestTopicSettings settings;
    private final IngestStats stats;
    private final FormatAdapter adapter;
    private ProcessorContext<Object, Object> context;

    IngestProcessor(final IngestTopicSettings settings, final IngestStats stats) {
        this.settings = settings;
        this.stats = stats;
        this.adapter = Formats.adapter(settings.format()); // adapters keep parse state: one per task
    }

    @Override
    public void init(final ProcessorContext<Object, Object> processorContext) {
        this.context = processorContext;
    }

    @Override
    public void process(final Record<byte[], byte[]> message) {
        final Forwarding sink = new Forwarding(message);
        final byte[] value = message.value() == null ? new byte[0] : message.value();
        adapter.parse(value, settings.context().withDefaultTimestamp(message.timestamp()), sink);
        if (sink.units == 0) {
            sink.record();
            sink.reject(new Rejection(value, RejectReason.MALFORMED, "empty message: no " + settings.format() + " data in it",
                settings.format(), "message"));
        }
    }

    /** The adapter's sink for one message: forwards as it goes, counts into the shared stats. */
    private final class Forwarding implements IngestSink {
        private final Record<byte[], byte[]> message;
        private int units;

        Forwarding(final Record<byte[], byte[]> message) {
            this.message = message;
        }

        @Override
        public void record() {
            units++;
            stats.record();
        }

        @Override
        public void sample(final Sample sample) {
            context.forward(new Record<Object, Object>(sample.key(), sample, message.timestamp()), IngestTopology.SAMPLES_SINK);
            stats.sample();
        }

        @Override
        public void reject(final Rejection r) {
            final RecordHeaders headers = new RecordHeaders(message.headers().toArray());
            new DeadLetter(r.error(), "ingest:" + r.format(), position() + " " + r.location()).addTo(headers);
            final byte[] payload = DeadLetter.fit(r.raw(), headers);
            context.forward(new Record<Object, Object>(DeadLetter.fitKey(message.key()), payload, message.timestamp(), headers),
                IngestTopology.DEAD_LETTER_SINK);
            stats.reject(r.reason());
        }

        /** Where the message sits (topic-partition@offset), built only for a dead letter: most messages need none. */
        private String position() {
            return context.recordMetadata()
                .map((RecordMetadata m) -> DeadLetter.position(m.topic(), m.partition(), m.offset())).orElse("unknown");
        }

        @Override
        public void dropped(final String reason) {
            stats.dropped(reason);
        }

        @Override
        public void warn(final String message) {
            stats.warn(message);
        }
    }
}
