package dev.fabrictwin.analyzer.job;

import static dev.fabrictwin.analyzer.tick.IntervalsFixture.EPOCH_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.IntervalsFixture;
import dev.fabrictwin.analyzer.tick.IntervalsFixture.PulseTrain;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.tick.TickAssembler;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

class JobHealthTrackerTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JOB = "j";
    /**
     * Ring all-reduce over four hosts, one 100 Gb/s NIC each: every rank puts 10 GB on the wire per iteration
     * (1.5 × S of payload plus 64 B of headers per 4 KiB packet: S = 10 GB / 1.5 / (4160/4096)), 800 ms at line
     * rate in the twin. Declared: a 2000 ms period with comm fraction 0.4, so 1200 ms of compute.
     */
    private static final long COLLECTIVE_BYTES = Math.round(1e10 / 1.5 / Technology.ROCE_V2.wirePerPayload());
    private static final double NIC_BYTES_PER_ITERATION = 1e10;
    private static final double COMPUTE_MS = 1200;
    private static final double TWIN_COMM_MS = 800;
    private static final double PERIOD_MS = 2000;
    /** The four NICs at line rate (bytes/s). */
    private static final double JOB_LINE_RATE = 4 * 12.5e9;
    /** The twin's first comm phase starts one compute phase after its epoch. */
    private static final double TWIN_FIRST_COMM = EPOCH_MS + COMPUTE_MS;
    /** Ticks short enough to see the job's phase (8 a period), and too long to (a period is 2 ticks). */
    private static final long PHASE_TICK_MS = 250;
    private static final long COARSE_TICK_MS = 1000;
    /** Stated tolerance on a comm time read from a noiseless pulse train (see PhaseLockTest). */
    private static final double COMM_TOLERANCE = 0.015;
    private static final int TX = CounterIndex.of(CounterNames.TX_BYTES);

    /** A NIC's tx bytes over [t0, t1], given what the twin expects of it there. */
    @FunctionalInterface
    private interface NicBytes {
        double of(PortRef nic, long t0, long t1, double expected);
    }

    /**
     * One closed tick as the tracker saw it: its report, its findings, the slowdown it judged by, and that slowdown
     * before the job's usual pace is taken out (in coarse mode the judged figures come from the last
     * {@code COARSE_WINDOW} ticks, the reported one from a window long enough to be steady).
     */
    private record Report(long endMs, JobHealth health, List<Finding> findings, double judged, double raw) {

        boolean bottleneck() {
            return findings.stream().anyMatch(f -> f.type() == FaultType.JOB_BOTTLENECK);
        }

        double atMs() {
            return endMs - EPOCH_MS;
        }
    }

    private static TwinReplica twin() {
        final JsonNode topology = FabricJson.toJson(
            new SpineLeaf(2, 2, 2, 1, 100e9, 100e9, Technology.ROCE_V2).build("lab"), JSON);
        final ObjectNode job = JSON.createObjectNode().put("id", JOB).put("pattern", "ring-allreduce")
            .put("bytesPerIteration", COLLECTIVE_BYTES).put("iterationPeriodMs", (long) PERIOD_MS)
            .put("commFraction", 0.4);
        job.putArray("hostList").add("host-0").add("host-1").add("host-2").add("host-3");
        return TwinReplica.from(topology, List.of(job), EPOCH_MS);
    }

    /**
     * Drives a tracker as {@code FabricAnalyzer} does, without the detectors: every NIC of the job samples once a
     * tick; each interval feeds the phase lock, is compared with the twin and joins its tick; each closed tick
     * is judged.
     */
    private static final class Run {

        final TwinReplica twin = twin();
        final JobHealthTracker tracker = new JobHealthTracker(twin, CAL.jobs());
        final List<Report> reports = new ArrayList<>();
        private final long tickMs;
        private final TickAssembler ticks;
        private final List<PortRef> nics = twin.jobs().get(0).ranks();
        private final double[] counters = new double[CounterIndex.size()];
        private final double[] gauges = new double[CounterIndex.size()];
        private final boolean[] present = new boolean[CounterIndex.size()];
        /** Every retime the tracker returned, steered with or not. */
        final List<ReplicaSync.Retime> retimes = new ArrayList<>();
        private long nowMs = EPOCH_MS;
        private boolean unreliable;
        private boolean steering = true;

        Run(final long tickMs) {
            this.tickMs = tickMs;
            this.ticks = new TickAssembler(tickMs, tickMs / 2, twin.fabric().directedLinkCount());
        }

        /** From now on half the NICs report counter resets and half lost samples. */
        Run unreliable() {
            unreliable = true;
            return this;
        }

        /** From now on the twin is not steered with the retimes the tracker returns (they are only kept). */
        Run unsteered() {
            steering = false;
            return this;
        }

        /** Samples every NIC each tick up to {@code untilMs} after the epoch. */
        Run until(final double untilMs, final NicBytes bytes) {
            for (long t1 = nowMs + tickMs; t1 <= EPOCH_MS + untilMs; t1 += tickMs) {
                for (int n = 0; n < nics.size(); n++) {
                    final PortRef nic = nics.get(n);
                    final long t0 = t1 - tickMs;
                    twin.expectedInto(IntervalsFixture.tx(nic.device(), nic.port(), t0, t1, 0), counters, gauges,
                        present);
                    final PortInterval interval = IntervalsFixture.tx(nic.device(), nic.port(), t0, t1,
                        Math.round(bytes.of(nic, t0, t1, counters[TX])), unreliable && n % 2 == 0,
                        unreliable && n % 2 == 1);
                    tracker.observe(interval);
                    for (final Tick tick : ticks.add(interval, twin.fabric().portIndex(nic))) {
                        // as the analyzer does: the twin's expectation when the tick closes
                        tick.ports().forEach(p -> p.expect((port, a, b, c, g) -> twin.expectedInto(port, a, b, c, g, present),
                            counters, gauges));
                        final List<Finding> findings = new ArrayList<>();
                        final JobHealthTracker.Judged judged = tracker.onTick(tick, findings);
                        retimes.addAll(judged.retimes());
                        if (steering) {
                            twin.steer(ReplicaSync.retimes(judged.retimes())); // as the analyzer does, once judged
                        }
                        final List<JobHealth> health = judged.health();
                        assertThat(health).hasSize(1);
                        reports.add(new Report(tick.endMs(), health.get(0), findings, tracker.slowdown(JOB),
                            tracker.rawSlowdown(JOB)));
                    }
                }
                nowMs = t1;
            }
            return this;
        }

        /** Reports of the ticks ending in [fromMs, toMs) after the epoch. */
        List<Report> between(final double fromMs, final double toMs) {
            return reports.stream().filter(r -> r.atMs() >= fromMs && r.atMs() < toMs).toList();
        }

        /** The twin's next comm start, in ms after the epoch. */
        double twinNextCommMs() {
            return twin.nextCommStartMs(JOB) - EPOCH_MS;
        }
    }

    /** NICs doing exactly what an independent replica of the twin predicts. */
    private static NicBytes asTheTwinPredicts() {
        final TwinReplica reference = twin();
        return (nic, t0, t1, expected) -> reference.expected(IntervalsFixture.tx(nic.device(), nic.port(), t0, t1, 0))
            .counter(CounterNames.TX_BYTES);
    }

    /** Every NIC shows the same pulses (ring ranks move in lock step). */
    private static NicBytes pulses(final PulseTrain train) {
        return (nic, t0, t1, expected) -> train.bytes(t0, t1);
    }

    /** Iterations whose comm phases the NICs stretch k(t) times (t in ms after the epoch). */
    private static PulseTrain stretched(final double firstStartMs, final IntToDoubleFunction k) {
        return new PulseTrain(firstStartMs, COMPUTE_MS, NIC_BYTES_PER_ITERATION, i -> k.applyAsDouble(i) * TWIN_COMM_MS,
            EPOCH_MS + 200_000);
    }

    /**
     * Coarse samples see only average rates: iterations with comm stretched k(t) times carry the twin's bytes
     * over compute + k × comm instead of compute + comm.
     */
    private static NicBytes averageSlowdown(final DoubleUnaryOperator k) {
        return (nic, t0, t1, expected) -> expected * PERIOD_MS
            / (COMPUTE_MS + k.applyAsDouble(t1 - EPOCH_MS) * TWIN_COMM_MS);
    }

    private static Run coarse(final DoubleUnaryOperator k, final double untilMs) {
        return new Run(COARSE_TICK_MS).until(untilMs, averageSlowdown(k));
    }

    private static Report first(final List<Report> reports, final Predicate<Report> which) {
        return reports.stream().filter(which).findFirst().orElseThrow();
    }

    private static Report before(final Run run, final Report report) {
        return run.reports.get(run.reports.indexOf(report) - 1);
    }

    // ---- phase mode: the period spans 8 ticks ----

    @Test
    void shouldReportASlowdownOfOneForAJobRunningAsTheTwinPredicts() {
        final Run run = new Run(PHASE_TICK_MS).until(40_000, asTheTwinPredicts());

        final List<Report> locked = run.between(6_000, 40_000);
        assertThat(locked).hasSize(136);
        for (final Report r : locked) {
            final JobHealth h = r.health();
            assertThat(h.job()).isEqualTo(JOB);
            assertThat(h.ts()).isEqualTo(r.endMs());
            assertThat(h.expectedCommMs()).isCloseTo(TWIN_COMM_MS, within(1e-6));
            assertThat(h.observedCommMs()).isCloseTo(TWIN_COMM_MS, within(COMM_TOLERANCE * TWIN_COMM_MS));
            assertThat(h.slowdown()).isCloseTo(1.0, within(COMM_TOLERANCE));
            assertThat(h.phaseQuality()).isGreaterThan(0.99);
            assertThat(h.observedBytesPerSec()).isCloseTo(h.expectedBytesPerSec(), within(100.0));
            assertThat(r.judged()).isCloseTo(1.0, within(COMM_TOLERANCE));
            assertThat(r.findings()).isEmpty();
        }
        assertThat(locked.stream().mapToDouble(r -> r.health().expectedBytesPerSec()).max().orElseThrow())
            .isCloseTo(JOB_LINE_RATE, within(1e3));
        // nothing to fit before the samples span two periods
        assertThat(run.between(0, 3_000)).allSatisfy(r -> assertThat(r.health().observedCommMs()).isNaN());
    }

    @Test
    void shouldReportKWhenCommPhasesLastKTimesLonger() {
        // healthy for 15 iterations (to 31.2 s), then every comm phase takes 1.75× the twin's
        final PulseTrain train = stretched(TWIN_FIRST_COMM, i -> i < 15 ? 1 : 1.75);
        final Run run = new Run(PHASE_TICK_MS).until(80_000, pulses(train));

        assertThat(run.between(6_000, 31_000)).allSatisfy(r -> {
            assertThat(r.health().slowdown()).isCloseTo(1.0, within(COMM_TOLERANCE));
            assertThat(r.bottleneck()).isFalse();
        });
        final List<Report> slowed = run.between(60_000, 80_000);
        assertThat(slowed).isNotEmpty().allSatisfy(r -> {
            final JobHealth h = r.health();
            assertThat(h.observedCommMs()).isCloseTo(1400, within(COMM_TOLERANCE * 1400));
            assertThat(h.slowdown()).isCloseTo(1.75, within(COMM_TOLERANCE * 1.75));
            assertThat(h.phaseQuality()).isGreaterThan(0.95);
            // judged against the learned healthy slowdown, which the onset nudged up a little at most
            assertThat(r.judged()).isBetween(1.75 / 1.1, 1.75 * (1 + COMM_TOLERANCE));
            assertThat(r.findings()).singleElement().satisfies(f -> {
                assertThat(f.type()).isEqualTo(FaultType.JOB_BOTTLENECK);
                assertThat(f.entity()).isEqualTo(Entity.job(JOB));
                assertThat(f.rootCandidate()).isFalse();
                assertThat(f.metric()).isEqualTo("comm_ms");
                assertThat(f.observed()).isCloseTo(1400, within(COMM_TOLERANCE * 1400));
                assertThat(f.expected()).isCloseTo(TWIN_COMM_MS, within(1e-6));
            });
        });
    }

    @Test
    void shouldSteerTheTwinToTheCommPhasesItsNicsShow() {
        // the NICs run 500 ms behind the twin's own schedule
        final PulseTrain late = stretched(TWIN_FIRST_COMM + 500 - 20_000, i -> 1);
        final Run run = new Run(PHASE_TICK_MS).until(21_000, pulses(late));

        // before the first fit the twin expects traffic where there is none
        assertThat(run.between(0, 3_000)).anySatisfy(r -> assertThat(r.health().observedBytesPerSec())
            .isLessThan(0.5 * r.health().expectedBytesPerSec()));
        // once steered, the twin expects each tick's bytes where the NICs send them (the lock sees a tick when it
        // closes: the first fit falls in the twin's comm phase at 6 s, which is not moved; the next one is)
        assertThat(run.between(7_000, 21_000)).allSatisfy(r -> assertThat(r.health().observedBytesPerSec())
            .isCloseTo(r.health().expectedBytesPerSec(), within(0.01 * JOB_LINE_RATE)));
        assertThat(run.twinNextCommMs()).isCloseTo(late.firstStartAfter(EPOCH_MS + 21_000) - EPOCH_MS,
            within(CAL.jobs().retimeMs()));
    }

    @Test
    void shouldReturnWhereTheTwinsCommPhasesShouldStartAndLeaveTheTwinToWhoeverSteersIt() {
        // as above, but the retimes the tracker returns are not applied: the twin keeps its own schedule
        final PulseTrain late = stretched(TWIN_FIRST_COMM + 500 - 20_000, i -> 1);
        final Run run = new Run(PHASE_TICK_MS).unsteered().until(21_000, pulses(late));

        assertThat(run.twinNextCommMs()).as("the twin's own schedule, a period after 20 s")
            .isCloseTo(21_200, within(1e-6));
        assertThat(run.retimes).isNotEmpty().allSatisfy(r -> {
            assertThat(r.job()).isEqualTo(JOB);
            assertThat(late.firstStartAfter(r.atMs() - CAL.jobs().retimeMs())).as("a comm start the NICs show")
                .isCloseTo(r.atMs(), within(CAL.jobs().retimeMs()));
        });
    }

    @Test
    void shouldSteerTheTwinAgainAfterItsNicsSlip() {
        // as above, then one comm phase 300 ms longer: the NICs' later iterations start 300 ms later
        final PulseTrain slipping = stretched(TWIN_FIRST_COMM + 500 - 20_000, i -> i == 20 ? 1.375 : 1);
        final Run run = new Run(PHASE_TICK_MS).until(61_000, pulses(slipping));

        assertThat(run.between(50_000, 61_000))
            .allSatisfy(r -> assertThat(r.health().phaseQuality()).isGreaterThan(0.99));
        assertThat(run.between(50_000, 61_000)).allSatisfy(r -> assertThat(r.health().observedBytesPerSec())
            .isCloseTo(r.health().expectedBytesPerSec(), within(0.01 * JOB_LINE_RATE)));
        assertThat(run.twinNextCommMs()).isCloseTo(slipping.firstStartAfter(EPOCH_MS + 61_000) - EPOCH_MS,
            within(CAL.jobs().retimeMs()));
    }

    @Test
    void shouldNeitherJudgeNorSteerOnFitsUnderMinQuality() {
        final Random random = new Random(3);
        final Run run = new Run(PHASE_TICK_MS).until(41_000, (nic, t0, t1, expected) -> random.nextDouble() * 3e9);

        assertThat(run.reports).hasSize(163).allSatisfy(r -> {
            assertThat(r.health().observedCommMs()).isNaN();
            assertThat(r.health().slowdown()).isNaN();
            assertThat(r.health().phaseQuality()).isNaN();
            assertThat(r.findings()).isEmpty();
            assertThat(r.judged()).isEqualTo(1.0);
        });
        // the twin keeps its own schedule: comm starts at 1.2 s + 2 s × n
        assertThat(run.twinNextCommMs()).isCloseTo(41_200, within(1e-6));
    }

    @Test
    void shouldKeepTheJudgementThroughStaleFitsFailedFitsThenDropIt() {
        // healthy to 31.2 s, then comm twice the twin's; after 60 s the NICs send a steady stream with no phase
        // to fit (the job still sends: a silent job is idle, not judged; JobLifecycleTest)
        final PulseTrain stopping = new PulseTrain(TWIN_FIRST_COMM, COMPUTE_MS, NIC_BYTES_PER_ITERATION,
            i -> (i < 15 ? 1 : 2) * TWIN_COMM_MS, EPOCH_MS + 60_000);
        final double steadyPerMs = NIC_BYTES_PER_ITERATION / PERIOD_MS;
        final Run run = new Run(PHASE_TICK_MS).until(120_000, (nic, t0, t1, expected) ->
            stopping.bytes(t0, t1) + Math.max(0, t1 - Math.max(t0, EPOCH_MS + 60_000)) * steadyPerMs);

        final Report lastLocked = run.reports.stream().filter(r -> !Double.isNaN(r.health().observedCommMs()))
            .reduce((a, b) -> b).orElseThrow();
        final Report firstFailed = run.reports.get(run.reports.indexOf(lastLocked) + 1);
        // fits come once a period: the STALE_FITS + 1st failure in a row drops the judgement
        final double dropped = firstFailed.atMs() + CAL.jobs().staleFits() * PERIOD_MS;

        assertThat(lastLocked.bottleneck()).isTrue();
        assertThat(lastLocked.health().slowdown()).isCloseTo(2.0, within(COMM_TOLERANCE * 2));
        assertThat(firstFailed.atMs()).isBetween(60_000.0, 75_000.0);
        assertThat(run.between(firstFailed.atMs(), 120_000))
            .allSatisfy(r -> assertThat(r.health().observedCommMs()).isNaN());
        assertThat(run.between(firstFailed.atMs(), dropped)).hasSize(8 * CAL.jobs().staleFits())
            .allSatisfy(r -> {
                assertThat(r.bottleneck()).isTrue();
                assertThat(r.judged()).isEqualTo(lastLocked.judged());
            });
        assertThat(run.between(dropped, 120_000)).isNotEmpty().allSatisfy(r -> {
            assertThat(r.bottleneck()).isFalse();
            assertThat(r.judged()).isLessThan(1.0);
        });
    }

    @Test
    void shouldNotFeedResetOrGapIntervalsToThePhaseLock() {
        final Run run = new Run(PHASE_TICK_MS).unreliable().until(20_000, asTheTwinPredicts());

        assertThat(run.reports).isNotEmpty().allSatisfy(r -> {
            assertThat(r.health().observedCommMs()).isNaN();
            // their bytes still count in the job's throughput
            assertThat(r.health().observedBytesPerSec()).isCloseTo(r.health().expectedBytesPerSec(), within(100.0));
        });
    }

    // ---- coarse mode: the period spans under COARSE_PERIODS ticks ----

    @Test
    void shouldJudgeByAverageRateOnceThePeriodIsUnderCoarsePeriodsTicks() {
        // 2000 ms is exactly 2.5 ticks of 800 ms, and just under 2.5 ticks of 801 ms
        final Run atBoundary = new Run(800).until(40_000, asTheTwinPredicts());
        final Run under = new Run(801).until(40_000, asTheTwinPredicts());

        assertThat(CAL.jobs().coarsePeriods() * 800).isEqualTo(PERIOD_MS);
        assertThat(atBoundary.reports).noneMatch(r -> Double.isNaN(r.health().phaseQuality())
            && !Double.isNaN(r.health().observedCommMs()));
        assertThat(under.reports).allSatisfy(r -> assertThat(r.health().phaseQuality()).isNaN());
        assertThat(atBoundary.between(10_000, 40_000)).allSatisfy(r -> {
            assertThat(r.health().phaseQuality()).isGreaterThan(0.99);
            assertThat(r.health().observedCommMs()).isCloseTo(TWIN_COMM_MS, within(COMM_TOLERANCE * TWIN_COMM_MS));
        });
        assertThat(under.between(10_000, 40_000)).isNotEmpty().allSatisfy(r ->
            assertThat(r.raw() * TWIN_COMM_MS).isCloseTo(TWIN_COMM_MS, within(COMM_TOLERANCE * TWIN_COMM_MS)));
    }

    /** Ticks of the window a coarse job's reported slowdown needs: T² / (comm · COARSE_ERROR), here 50. */
    private static final int STEADY_TICKS = (int) Math.ceil(PERIOD_MS * PERIOD_MS
        / (TWIN_COMM_MS * CAL.jobs().coarseError()) / COARSE_TICK_MS);

    @Test
    void shouldJudgeAfterCoarseWindowTicksAndReportOnlyOnceTheSteadyWindowHasFilled() {
        final Run run = new Run(COARSE_TICK_MS).until(80_000, asTheTwinPredicts());

        // the twin's first comm phase ends at 2 s: tick 1 s on, the judged window fills for COARSE_WINDOW ticks...
        assertThat(run.between(CAL.jobs().coarseWindowTicks() * COARSE_TICK_MS, 80_000)).hasSize(70).allSatisfy(r -> {
            assertThat(r.raw()).isCloseTo(1.0, within(1e-9));
            assertThat(r.findings()).isEmpty();
        });
        // ...and the reported figure is unknown until the steady window has: a number then, and exact
        assertThat(STEADY_TICKS).isEqualTo(50);
        assertThat(run.between(0, STEADY_TICKS * COARSE_TICK_MS)).hasSize(STEADY_TICKS - 1)
            .allSatisfy(r -> assertThat(r.health().slowdown()).isNaN());
        assertThat(run.between(STEADY_TICKS * COARSE_TICK_MS, 80_000)).hasSize(30).allSatisfy(r -> {
            assertThat(r.health().observedCommMs()).isCloseTo(TWIN_COMM_MS, within(1e-6));
            assertThat(r.health().slowdown()).isCloseTo(1.0, within(1e-9));
            assertThat(r.health().phaseQuality()).isNaN();
        });
    }

    @Test
    void shouldReportKInCoarseModeWithoutSteeringTheTwin() {
        // comm 1.625× the twin's: 1300 ms, a 2500 ms period, so every 10-tick window holds 4 whole iterations
        // (and the 50-tick steady window 20)
        final Run run = new Run(COARSE_TICK_MS).until(81_000, pulses(stretched(TWIN_FIRST_COMM, i -> 1.625)));

        assertThat(run.between(10_000, 81_000)).hasSize(71).allSatisfy(r ->
            assertThat(r.raw()).isCloseTo(1.625, within(1e-6)));
        assertThat(run.between(50_000, 81_000)).hasSize(31).allSatisfy(r -> {
            assertThat(r.health().observedCommMs()).isCloseTo(1300, within(1e-3));
            assertThat(r.health().slowdown()).isCloseTo(1.625, within(1e-6));
            assertThat(r.health().phaseQuality()).isNaN();
        });
        // the NICs' phases are nowhere near the twin's, which keeps its own schedule
        assertThat(run.twinNextCommMs()).isCloseTo(81_200, within(1e-6));
    }

    @Test
    void shouldOpenABottleneckOverSlowdownAndHoldItUntilUnderRecovered() {
        // healthy, then 1.6×, then hovering between 1.28× and 1.4× (4 s each), then healthy again
        final DoubleUnaryOperator hover = t -> (long) t / 4000 % 2 == 0 ? 1.28 : 1.4;
        final Run run = coarse(t -> t < 40_000 ? 1 : t < 70_000 ? 1.6 : t < 100_000 ? hover.applyAsDouble(t) : 1,
            140_000);

        final Report opened = first(run.reports, Report::bottleneck);
        final Report closed = first(run.between(opened.atMs(), 140_000), r -> !r.bottleneck());
        final List<Report> episode = run.between(opened.atMs(), closed.atMs());

        assertThat(opened.atMs()).isBetween(40_000.0, 50_000.0);
        assertThat(opened.judged()).isGreaterThan(CAL.jobs().slowdown());
        assertThat(before(run, opened).judged()).isLessThanOrEqualTo(CAL.jobs().slowdown());
        assertThat(closed.atMs()).isBetween(100_000.0, 110_000.0);
        assertThat(closed.judged()).isLessThanOrEqualTo(CAL.jobs().recovered());
        assertThat(before(run, closed).judged()).isGreaterThan(CAL.jobs().recovered());
        // one episode: every tick in between has the finding, though most of the hover would not have opened one
        assertThat(episode).allSatisfy(r -> assertThat(r.bottleneck()).isTrue());
        assertThat(run.between(80_000, 100_000)).allSatisfy(r -> assertThat(r.judged())
            .isBetween(CAL.jobs().recovered(), CAL.jobs().slowdown()));
        assertThat(run.between(closed.atMs(), 140_000)).allSatisfy(r -> assertThat(r.bottleneck()).isFalse());
    }

    @Test
    void shouldNeverOpenABottleneckForASlowdownBetweenRecoveredAndSlowdown() {
        final Run run = coarse(t -> t < 40_000 ? 1 : 1.28, 100_000);

        assertThat(run.reports).noneMatch(Report::bottleneck);
        assertThat(run.between(50_000, 100_000)).allSatisfy(r -> assertThat(r.raw()).isCloseTo(1.28, within(1e-6)));
        // judged in the band where an open bottleneck would stay open, while the baseline slowly absorbs it
        final double worst = run.reports.stream().mapToDouble(Report::judged).max().orElseThrow();
        assertThat(worst).isBetween(CAL.jobs().recovered(), CAL.jobs().slowdown());
        assertThat(run.reports.get(run.reports.size() - 1).judged()).isLessThan(worst);
    }

    @Test
    void shouldLearnAJobsUsualSlowdownAndJudgeAgainstIt() {
        // steadily 1.5× the twin from the start (as if the real ECMP collides where the twin's does not), then
        // 1.6× slower than that
        final Run run = coarse(t -> t < 60_000 ? 1.5 : 2.4, 90_000);

        assertThat(run.between(10_000, 60_000)).hasSize(50).allSatisfy(r -> {
            assertThat(r.raw()).isCloseTo(1.5, within(1e-6));
            // not judged for BASELINE_AFTER values, then judged against the 1.5 it learned
            assertThat(r.judged()).isCloseTo(1.0, within(1e-6));
            assertThat(r.bottleneck()).isFalse();
        });
        assertThat(run.between(75_000, 90_000)).allSatisfy(r -> {
            assertThat(r.raw()).isCloseTo(2.4, within(1e-6));
            // the onset's first values still taught the baseline a little before the bottleneck opened
            assertThat(r.judged()).isBetween(2.4 / 1.5 / 1.1, 2.4 / 1.5);
            assertThat(r.bottleneck()).isTrue();
        });
    }

    @Test
    void shouldJudgeAJobFasterThanTheTwinAgainstTheTwinNotItsUsualPace() {
        // usually 0.7× the twin's comm time; back at the twin's pace is 1.43× its usual, yet no bottleneck
        final Run run = coarse(t -> t < 40_000 ? 0.7 : 1.0, 80_000);

        assertThat(run.between(30_000, 40_000)).allSatisfy(r -> assertThat(r.judged()).isCloseTo(0.7, within(1e-6)));
        assertThat(run.between(60_000, 80_000)).allSatisfy(r -> {
            assertThat(r.raw()).isCloseTo(1.0, within(1e-6));
            assertThat(r.judged()).isCloseTo(1.0, within(1e-6));
        });
        assertThat(run.reports).noneMatch(Report::bottleneck);
    }

    @Test
    void shouldOpenABottleneckAboveTheSlowdownAndHoldItUntilUnderTheRecoveredFigure() {
        final DetectionCalibration.Jobs cal = CAL.jobs();

        assertThat(JobHealthTracker.bottleneck(1.3, false, cal)).isFalse();
        assertThat(JobHealthTracker.bottleneck(1.31, false, cal)).isTrue();
        assertThat(JobHealthTracker.bottleneck(1.2, true, cal)).as("still over 1.15").isTrue();
        assertThat(JobHealthTracker.bottleneck(1.15, true, cal)).isFalse();
    }
}
