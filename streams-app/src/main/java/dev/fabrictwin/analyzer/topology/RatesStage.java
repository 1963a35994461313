package dev.fabrictwin.analyzer.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.DeviceClocks;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.analyzer.rates.TimeGate;
import dev.fabrictwin.analyzer.tick.TickAssembler;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleContent;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.twin.fabric.Quoted;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * First stage of the analyzer: {@code telemetry.samples} → per-port intervals. Keeps each port's last sample
 * in the {@value #LAST_SAMPLE_STORE} store and turns each new one into a {@link PortInterval} with
 * {@link PortRates} (wrap/reset safe, late samples ignored). A record that is not a canonical sample never reaches
 * it: the topic's serde fails on it and {@link DeadLetterHandlers} sends it to {@code telemetry.deadletter} with
 * its reason; processing goes on.
 */
final class RatesStage {

    public static final String LAST_SAMPLE_STORE = "port-last-sample";
    private static final Logger LOG = LoggerFactory.getLogger(RatesStage.class);

    private RatesStage() {
    }

    /**
     * Adds the stage; returns batches of intervals tagged with the lane of the sample partition they came from
     * (partition mod {@code lanes}). With {@code batchFlushMs} = 0 a batch is what one sample yielded (empty ones
     * dropped); with {@code batchFlushMs} &gt; 0 it is everything the task's partition yielded for one tick, sent when
     * a sample of another tick arrives or {@code batchFlushMs} of wall time pass — a record per partition and tick
     * instead of per port and tick, which is most of the cost of the lanes (their records are produced, stored,
     * fetched and processed one by one, exactly once).
     */
    public static KStream<String, LaneBatch> buildBatches(final StreamsBuilder builder, final Topics topics,
                                                          final long nominalIntervalMs, final int lanes,
                                                          final long batchFlushMs) {
        return buildBatches(builder, topics, nominalIntervalMs, lanes, batchFlushMs, null, AnalyzerListener.NONE);
    }

    /**
     * As above; a sample whose names meet no port of the topology in the global store {@code topologyStore} (null:
     * every name is kept) is dropped before it costs any state, and counted on {@code listener} by reason
     * ({@link KnownPorts}).
     */
    public static KStream<String, LaneBatch> buildBatches(final StreamsBuilder builder, final Topics topics,
                                                          final long nominalIntervalMs, final int lanes,
                                                          final long batchFlushMs, final String topologyStore,
                                                          final AnalyzerListener listener) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(LAST_SAMPLE_STORE),
            Serdes.String(), LastSampleSerde.INSTANCE).withCachingDisabled());
        final TopicSpec<String, Sample> samples = topics.samples();
        return builder
            .stream(samples.name(), Consumed.with(samples.keySerde(), samples.valueSerde()).withName("samples-source"))
            .process(() -> new PortRatesProcessor(nominalIntervalMs, lanes, batchFlushMs, topologyStore, listener),
                Named.as("port-rates"), LAST_SAMPLE_STORE);
    }

    /** The intervals one input record yielded, and the lane (sample partition mod lanes) they travel in. */
    public record LaneBatch(int lane, List<PortInterval> intervals) {
    }

    /**
     * Emits {@link LaneBatch}es of the {@link PortInterval}s its samples yield. The store keeps each port's last
     * sample under {@code device/port}. The store has no cache: each write goes to the changelog at once, in the
     * transaction of the lane records it goes with. A cache sends its writes when it is flushed, and Kafka Streams also
     * flushes it when it closes a task dirty (KAFKA-8972), into whatever transaction comes next: AnalyzerChaosTest
     * traced a restarted task whose stored samples stood behind a lane record already committed, and an interval
     * overlapping one already counted.
     *
     * <p>While intervals are held back for batching, a port's key keeps the sample its pending interval starts
     * from, and the sample that ends it waits under a pending key ({@link #PENDING_SUFFIX}): a task restarted from a
     * commit taken mid-batch sends that interval again, so nothing is lost, counted twice or made longer.
     *
     * <p>A sample that is not telemetry (a timestamp before 2000, no value at all, a negative canonical gauge:
     * {@link SampleContent}, as ingest judges it) or whose clock is wrong ({@link TimeGate}) is dead-lettered with its
     * reason. One whose names meet no topology port ({@link KnownPorts}) is counted and dropped before it costs state:
     * what the stage keeps grows with the fabric's ports, not with the names a producer makes up. A port silent for
     * {@link #FORGET_AFTER_MS} of event time is forgotten (checked each {@link #FORGET_EVERY} of wall time): that
     * bounds the rest (ports a topology does not know yet, ports that went away). A forgotten port that returns
     * starts afresh, as after a reboot.
     */
    static final class PortRatesProcessor implements Processor<String, Sample, String, LaneBatch> {

        /** A batch is sent at this many intervals at the latest, whatever the tick: bounds the heap. */
        static final int MAX_PENDING = 10_000;
        static final long MAX_AHEAD_OF_WALL_CLOCK_MS = 10 * 60_000;
        static final long MAX_EVENT_TIME_JUMP_MS = 5 * 60_000;
        /** A port silent this long (event time) is forgotten. */
        static final long FORGET_AFTER_MS = 15 * 60_000;
        static final Duration FORGET_EVERY = Duration.ofMinutes(1);
        /** Devices with a wrong clock logged at most (one line each): bounds the log and the memory of what was said. */
        static final int MAX_LOGGED_AHEAD = 1_000;

        private final long nominalIntervalMs;
        private final int lanes;
        private final long batchFlushMs;
        private final String topologyStore;
        private final AnalyzerListener listener;
        /** Null without a topology store: every name is kept. */
        private KnownPorts known;
        private ProcessorContext<String, LaneBatch> context;
        private KeyValueStore<String, Sample> last;
        /** Each port's last sample (pending ones included): saves a store read; the store stays the truth on restart. */
        private final Map<String, Sample> latest = new HashMap<>();
        /**
         * Store key of a port's sample whose interval waits in the pending batch: written as the sample arrives, so a
         * crash between a commit and the batch going out loses nothing (the restarted task sends that interval
         * again); removed when the batch goes out.
         */
        static final String PENDING_SUFFIX = "\u0000pending";

        /** Batching: intervals not sent yet, their tick, and the store writes of the samples that made them. */
        private final List<PortInterval> pending = new ArrayList<>();
        private final Map<String, Sample> pendingWrites = new LinkedHashMap<>();
        private long pendingTick = Long.MIN_VALUE;
        private boolean recovered;
        private boolean warnedAhead;
        private long newestTs = Long.MIN_VALUE;
        private int lane;
        /** Wrong clocks stop here, before they can move event time (wall-clock skew of real devices is far smaller). */
        private TimeGate clocks;
        /**
         * The partition's devices' latest sample times: lane records are stamped no later than the time they support
         * together, so one device whose clock runs ahead cannot stall its lane in the analysis's timestamp-ordered merge
         * (its intervals still travel, and the analysis keeps them in ticks of their own until the fabric gets there).
         */
        private DeviceClocks partitionTime;
        /** Devices whose clock running ahead was logged (once each, until they come back in line); bounded. */
        private final Set<String> loggedAhead = new HashSet<>();

        PortRatesProcessor(final long nominalIntervalMs, final int lanes, final long batchFlushMs) {
            this(nominalIntervalMs, lanes, batchFlushMs, null, AnalyzerListener.NONE);
        }

        PortRatesProcessor(final long nominalIntervalMs, final int lanes, final long batchFlushMs,
                           final String topologyStore, final AnalyzerListener listener) {
            this.nominalIntervalMs = nominalIntervalMs;
            this.lanes = lanes;
            this.batchFlushMs = batchFlushMs;
            this.topologyStore = topologyStore;
            this.listener = listener;
        }

        @Override
        public void init(final ProcessorContext<String, LaneBatch> context) {
            this.context = context;
            this.last = context.getStateStore(LAST_SAMPLE_STORE);
            // Kafka Streams calls init again on this same instance when it revives a task it closed dirty (a corrupted
            // task, a fenced producer): what is in memory ran ahead of the committed state the task now resumes from,
            // and its replayed samples would be skipped as stale, their intervals lost (RatesReviveTest)
            latest.clear();
            pending.clear();
            pendingWrites.clear();
            pendingTick = Long.MIN_VALUE;
            recovered = false;
            warnedAhead = false;
            newestTs = Long.MIN_VALUE;
            clocks = new TimeGate(MAX_AHEAD_OF_WALL_CLOCK_MS, MAX_EVENT_TIME_JUMP_MS);
            partitionTime = new DeviceClocks(TickAssembler.SUPPORT_TICKS * nominalIntervalMs);
            loggedAhead.clear();
            known = topologyStore == null ? null : new KnownPorts(context.getStateStore(topologyStore));
            // one task per sample partition: its lane is fixed (the partition mod lanes)
            this.lane = context.taskId().partition() % lanes;
            if (batchFlushMs > 0) {
                context.schedule(Duration.ofMillis(batchFlushMs), PunctuationType.WALL_CLOCK_TIME, now -> {
                    recoverPendingOnce(null);
                    flush();
                });
            }
            context.schedule(FORGET_EVERY, PunctuationType.WALL_CLOCK_TIME, now -> forgetSilentPorts());
        }

        /** Drops the ports that have not reported for {@link #FORGET_AFTER_MS} before the newest sample seen. */
        private void forgetSilentPorts() {
            if (newestTs == Long.MIN_VALUE) {
                return;
            }
            flush();
            final long before = newestTs - FORGET_AFTER_MS;
            final List<String> silent = new ArrayList<>();
            try (KeyValueIterator<String, Sample> it = last.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value == null || kv.value.ts() < before) {
                        silent.add(kv.key);
                    }
                });
            }
            silent.forEach(key -> {
                last.delete(key);
                latest.remove(key);
            });
            silent.stream().map(key -> key.substring(0, key.lastIndexOf('/'))).distinct()
                .filter(device -> partitionTime.latest(device) != null && partitionTime.latest(device) < before)
                .forEach(partitionTime::forget);
        }

        @Override
        public void process(final Record<String, Sample> record) {
            final Sample sample = record.value();
            // each refusal is dead-lettered by the processing handler and counted under its reason
            SampleContent.requireEpochMillis(sample);
            SampleContent.requireValues(sample);
            SampleContent.requireNonNegativeGauges(sample); // a broken reading must not become a rate or a queue
            final Optional<String> refused = clocks.judge(sample.device(), sample.ts(), context.currentSystemTimeMs());
            if (refused.isPresent()) {
                throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, refused.get());
            }
            final String unmatched = known == null ? null : known.unmatched(sample.device(), sample.port(), sample.ts());
            if (unmatched != null) { // the analysis would not take it: counted, and nothing of it kept
                listener.unmatched(unmatched);
                return;
            }
            recoverPendingOnce(sample);
            newestTs = Math.max(newestTs, sample.ts());
            partitionTime.advance(sample.device(), sample.ts());
            noteClockAhead(sample.device());
            final String portKey = sample.device() + "/" + sample.port();
            final PortRates.Step step = PortRates.next(previous(portKey), sample, nominalIntervalMs);
            if (step.late()) {
                noteAheadOfStore(portKey, sample);
                return; // its interval is covered by the samples around it
            }
            latest.put(portKey, sample);
            if (batchFlushMs == 0) {
                last.put(portKey, sample);
                step.interval().ifPresent(i -> context.forward(record.withValue(new LaneBatch(lane, List.of(i)))
                    .withTimestamp(laneStamp(i.t1()))));
                return;
            }
            if (step.interval().isPresent()) {
                final PortInterval interval = step.interval().get();
                final long tick = Math.floorDiv(interval.t1() + nominalIntervalMs / 2, nominalIntervalMs);
                if (tick != pendingTick || pending.size() >= MAX_PENDING) {
                    flush();
                    pendingTick = tick;
                }
                pending.add(interval);
            }
            pendingWrites.put(portKey, sample);
            last.put(portKey + PENDING_SUFFIX, sample);
        }

        /**
         * After a restart, before anything else (a sample, or the first flush when none comes): the samples whose
         * intervals were pending when the last transaction committed (their offsets with it) make their intervals
         * again, sent as the batch they were in.
         */
        private void recoverPendingOnce(final Sample first) {
            if (recovered || batchFlushMs == 0) {
                return;
            }
            recovered = true;
            final List<Sample> held = new ArrayList<>();
            final int[] ports = {0};
            final long[] newest = {Long.MIN_VALUE};
            try (KeyValueIterator<String, Sample> it = last.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.key.endsWith(PENDING_SUFFIX)) {
                        if (kv.value != null && stillPending(kv.key, kv.value)) {
                            held.add(kv.value);
                        }
                    } else if (kv.value != null) {
                        ports[0]++;
                        newest[0] = Math.max(newest[0], kv.value.ts());
                    }
                });
            }
            // where a (re)started task resumes, against what its store holds: the first thing to read when a
            // restart loses or repeats intervals
            LOG.info("rates task {} resumes at {}: its store holds {} ports, the newest at {}, and {} samples whose "
                + "intervals were pending", context.taskId(), first == null ? "a flush" : context.recordMetadata()
                    .map(m -> "offset " + m.offset() + " (" + first.device() + "/" + first.port() + " at " + first.ts() + ")")
                    .orElse("a sample"), ports[0], newest[0] == Long.MIN_VALUE ? "nothing" : newest[0], held.size());
            held.sort(Comparator.comparingLong(Sample::ts));
            for (final Sample sample : held) {
                final String portKey = sample.device() + "/" + sample.port();
                PortRates.next(last.get(portKey), sample, nominalIntervalMs).interval().ifPresent(pending::add);
                latest.put(portKey, sample);
                pendingWrites.put(portKey, sample);
            }
            flush();
        }

        /**
         * A pending key's sample whose interval was not sent: newer than the port's sample. One already sent is the
         * port's sample itself, since {@link #flush} leaves the pending key in place rather than delete it: a delete is
         * one changelog record per sample, a third of what the stage produced (the pending key is overwritten by the
         * port's next sample, and forgotten with the port).
         */
        private boolean stillPending(final String pendingKey, final Sample held) {
            final Sample base = last.get(pendingKey.substring(0, pendingKey.length() - PENDING_SUFFIX.length()));
            return base == null || held.ts() > base.ts();
        }

        /** Sends the pending batch and makes the store catch up with the samples behind it. */
        private void flush() {
            pendingWrites.forEach(last::put);
            pendingWrites.clear();
            if (pending.isEmpty()) {
                return;
            }
            long newest = Long.MIN_VALUE;
            for (final PortInterval i : pending) {
                newest = Math.max(newest, i.t1());
            }
            context.forward(new Record<>(null, new LaneBatch(lane, List.copyOf(pending)), laneStamp(newest)));
            pending.clear();
        }

        /** A lane record's time: its newest interval end, but never past the time the partition's devices support. */
        private long laneStamp(final long newest) {
            final long supported = partitionTime.supportedNewest();
            return supported == Long.MIN_VALUE ? newest : Math.min(newest, supported);
        }

        /**
         * Logs a device whose clock runs ahead of its partition's, once until it is back in line. Judged by the device's
         * latest time, as the analysis meters it, not by this sample's: a device of which one port runs ahead and the
         * others do not was logged again at each sample of that port.
         */
        private void noteClockAhead(final String device) {
            final long supported = partitionTime.supportedNewest();
            final long ts = partitionTime.latest(device);
            if (ts <= supported + TickAssembler.SUPPORT_TICKS * nominalIntervalMs) {
                loggedAhead.remove(device);
                return;
            }
            if (loggedAhead.size() < MAX_LOGGED_AHEAD && loggedAhead.add(device)) {
                LOG.warn("device {} stamps its samples {} s ahead of the other devices of partition {}: its clock looks "
                    + "wrong; its intervals wait in ticks of their own and hold nothing else up "
                    + "(fabric_device_clock_ahead_seconds)", Quoted.of(device), (ts - supported) / 1000.0,
                    context.taskId().partition());
            }
        }

        /**
         * A sample skipped as late that the committed store has not seen: the memory ran ahead of what this task
         * committed (a transaction aborted without the task being started again), and this sample's interval will not
         * be sent. Logged once per task start with what it knows (lanes found without intervals the store had
         * moved past).
         */
        private void noteAheadOfStore(final String portKey, final Sample sample) {
            if (warnedAhead) {
                return;
            }
            final Sample stored = last.get(portKey);
            final Sample pendingStored = last.get(portKey + PENDING_SUFFIX);
            final long storedTs = Math.max(stored == null ? Long.MIN_VALUE : stored.ts(),
                pendingStored == null ? Long.MIN_VALUE : pendingStored.ts());
            if (sample.ts() > storedTs) {
                warnedAhead = true;
                LOG.warn("rates task {}: sample {} of {} skipped as late, but its store holds only up to {} and its memory "
                    + "up to {}: intervals would be lost", context.taskId(), sample.ts(), portKey, storedTs,
                    latest.get(portKey) == null ? "nothing" : latest.get(portKey).ts());
            }
        }

        /** The port's last sample: in memory, else from the store (after a restart or a task migration). */
        private Sample previous(final String portKey) {
            final Sample cached = latest.get(portKey);
            return cached != null ? cached : last.get(portKey);
        }
    }
}
