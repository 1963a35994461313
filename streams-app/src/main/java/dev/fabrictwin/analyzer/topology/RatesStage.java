package dev.fabrictwin.analyzer.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
            Serdes.String(), LastSampleSerde.HELD).withCachingDisabled());
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
     * Emits {@link LaneBatch}es of the {@link PortInterval}s its samples yield. The store has no cache: each write goes
     * to the changelog at once, in the transaction of the lane records it goes with. A cache sends its writes when it
     * is flushed, and Kafka Streams also flushes it when it closes a task dirty (KAFKA-8972), into whatever transaction
     * comes next: AnalyzerChaosTest traced a restarted task whose stored samples stood behind a lane record already
     * committed, and an interval overlapping one already counted.
     *
     * <p>Each port has two slots in the store ({@code device/port} and {@code device/port} + {@link #SECOND_SLOT}),
     * each a sample with the number of the lane batch its interval went into ({@link HeldSample}), and the partition
     * has a mark: the number of the last batch sent ({@link #SENT_MARK}, written with each batch). A sample is written
     * once, as it arrives: into the slot of the port's newest sample if that one's interval still waits in the same
     * batch, else into the other slot, so the other slot always holds what the pending interval starts from. A task
     * restarted from a commit taken mid-batch finds, per port, a newest sample numbered past the mark, and sends its
     * interval again, so nothing is lost, counted twice or made longer, for one changelog record per sample.
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
        private KeyValueStore<String, HeldSample> last;
        /** Each port's newest sample and its slot: saves store reads; the store stays the truth on restart. */
        private final Map<String, Newest> latest = new HashMap<>();
        /**
         * Suffix of a port's second slot. Its text is that of the key the sample of a pending interval waited under
         * before batches were numbered, so a store written then reads as the two slots it was.
         */
        static final String SECOND_SLOT = "\u0000pending";
        /** Key of the partition's mark (no port's key: those have a '/'). */
        static final String SENT_MARK = "\u0000sent";

        /** Batching: intervals not sent yet, and their tick. */
        private final List<PortInterval> pending = new ArrayList<>();
        private long pendingTick = Long.MIN_VALUE;
        /** Number of the last batch sent; the pending batch is the next. */
        private long sent;
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
            pendingTick = Long.MIN_VALUE;
            sent = 0;
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
            slotsByPort().forEach((portKey, slots) -> {
                if (slots.newest() == null || slots.newest().sample().ts() < before) {
                    silent.add(portKey);
                }
            });
            silent.forEach(portKey -> {
                last.delete(portKey);
                last.delete(portKey + SECOND_SLOT);
                latest.remove(portKey);
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
            SampleContent.requireFewValues(sample); // the lanes and the store count them in 16 bits
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
            final Newest previous = previous(portKey);
            final PortRates.Step step = PortRates.next(previous == null ? null : previous.sample(), sample,
                nominalIntervalMs);
            if (step.late()) {
                noteAheadOfStore(portKey, sample);
                return; // its interval is covered by the samples around it
            }
            if (batchFlushMs == 0) {
                latest.put(portKey, new Newest(sample, sent, false));
                last.put(portKey, new HeldSample(sample, sent));
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
            // the newest sample's slot while its interval waits in this batch (the other keeps where it starts from);
            // a sample that made no interval has none to send again: numbered as sent
            final boolean second = previous != null && (previous.batch() > sent) == previous.second();
            hold(portKey, new Newest(sample, step.interval().isPresent() ? sent + 1 : sent, second));
        }

        private void hold(final String portKey, final Newest newest) {
            latest.put(portKey, newest);
            last.put(newest.second() ? portKey + SECOND_SLOT : portKey, new HeldSample(newest.sample(), newest.batch()));
        }

        /** A port's newest sample, the batch its interval went into or waits in, and which of its slots holds it. */
        private record Newest(Sample sample, long batch, boolean second) {
        }

        /** A port's two slots as the store has them, either null. */
        private record Slots(HeldSample first, HeldSample second) {
            HeldSample newest() {
                if (first == null || second == null) {
                    return first == null ? second : first;
                }
                return second.sample().ts() > first.sample().ts() ? second : first;
            }

            HeldSample other() {
                final HeldSample newest = newest();
                return newest == first ? second : first;
            }

            /**
             * Whether the newest sample's interval was not sent. Numbered, by the partition's mark; stored before numbers,
             * as then: a sample under the second key (then the pending key) newer than the first's.
             */
            boolean pendingAfter(final long sentMark) {
                final HeldSample newest = newest();
                if (newest == null) {
                    return false;
                }
                return newest.batch() == HeldSample.UNNUMBERED ? newest == second : newest.batch() > sentMark;
            }
        }

        /** Every port's slots in the store, and the partition's mark into {@link #sent} if the store has one. */
        private Map<String, Slots> slotsByPort() {
            final Map<String, Slots> ports = new HashMap<>();
            try (KeyValueIterator<String, HeldSample> it = last.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value == null) {
                        return;
                    }
                    if (kv.value.isMark()) {
                        sent = Math.max(sent, kv.value.batch());
                        return;
                    }
                    final boolean second = kv.key.endsWith(SECOND_SLOT);
                    final String portKey = second ? kv.key.substring(0, kv.key.length() - SECOND_SLOT.length()) : kv.key;
                    ports.merge(portKey, second ? new Slots(null, kv.value) : new Slots(kv.value, null),
                        (a, b) -> new Slots(a.first() != null ? a.first() : b.first(),
                            a.second() != null ? a.second() : b.second()));
                });
            }
            return ports;
        }

        /**
         * After a restart, before anything else (a sample, or the first flush when none comes): the samples whose
         * intervals were pending when the last transaction committed (their offsets with it) make their intervals
         * again, sent as the batch they were in.
         */
        private void recoverPendingOnce(final Sample first) {
            if (recovered) {
                return; // (also without batching: a store a batching run left mid-batch has intervals to send)
            }
            recovered = true;
            final Map<String, Slots> ports = slotsByPort();
            final long mark = sent;
            long numbered = sent;
            long newest = Long.MIN_VALUE;
            final List<Map.Entry<String, Slots>> held = new ArrayList<>();
            for (final Map.Entry<String, Slots> port : ports.entrySet()) {
                final HeldSample sample = port.getValue().newest();
                numbered = Math.max(numbered, sample.batch());
                newest = Math.max(newest, sample.sample().ts());
                if (port.getValue().pendingAfter(mark)) {
                    held.add(port);
                }
            }
            // where a (re)started task resumes, against what its store holds: the first thing to read when a
            // restart loses or repeats intervals
            LOG.info("rates task {} resumes at {}: its store holds {} ports, the newest at {}, batches sent through {}, "
                + "and {} samples whose intervals were pending", context.taskId(), first == null ? "a flush" : context.recordMetadata()
                    .map(m -> "offset " + m.offset() + " (" + first.device() + "/" + first.port() + " at " + first.ts() + ")")
                    .orElse("a sample"), ports.size(), newest == Long.MIN_VALUE ? "nothing" : newest, mark, held.size());
            // numbered past anything stored, so the batch these go out in counts every stored one as sent
            sent = numbered;
            held.sort(Comparator.comparingLong(e -> e.getValue().newest().sample().ts()));
            for (final Map.Entry<String, Slots> port : held) {
                final Slots slots = port.getValue();
                final HeldSample other = slots.other();
                final Sample sample = slots.newest().sample();
                final Optional<PortInterval> interval = PortRates.next(other == null ? null : other.sample(), sample,
                    nominalIntervalMs).interval();
                interval.ifPresent(pending::add);
                // written again, numbered: a sample stored before numbers would otherwise stay pending by the older
                // rule, and be sent again at each restart until its port reported
                hold(port.getKey(), new Newest(sample, interval.isPresent() ? sent + 1 : sent,
                    slots.newest() == slots.second()));
            }
            flush();
        }

        /** Sends the pending batch, and marks it sent in the store (in the transaction that sends it). */
        private void flush() {
            if (pending.isEmpty()) {
                return;
            }
            long newest = Long.MIN_VALUE;
            for (final PortInterval i : pending) {
                newest = Math.max(newest, i.t1());
            }
            context.forward(new Record<>(null, new LaneBatch(lane, List.copyOf(pending)), laneStamp(newest)));
            pending.clear();
            sent++;
            last.put(SENT_MARK, HeldSample.sentThrough(sent));
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
            final HeldSample stored = new Slots(last.get(portKey), last.get(portKey + SECOND_SLOT)).newest();
            final long storedTs = stored == null ? Long.MIN_VALUE : stored.sample().ts();
            if (sample.ts() > storedTs) {
                warnedAhead = true;
                LOG.warn("rates task {}: sample {} of {} skipped as late, but its store holds only up to {} and its memory "
                    + "up to {}: intervals would be lost", context.taskId(), sample.ts(), portKey, storedTs,
                    latest.get(portKey) == null ? "nothing" : latest.get(portKey).sample().ts());
            }
        }

        /** The port's newest sample: in memory, else from the store (after a restart or a task migration). */
        private Newest previous(final String portKey) {
            final Newest cached = latest.get(portKey);
            if (cached != null) {
                return cached;
            }
            final Slots slots = new Slots(last.get(portKey), last.get(portKey + SECOND_SLOT));
            final HeldSample newest = slots.newest();
            return newest == null ? null : new Newest(newest.sample(), newest.batch(), newest == slots.second());
        }
    }
}
