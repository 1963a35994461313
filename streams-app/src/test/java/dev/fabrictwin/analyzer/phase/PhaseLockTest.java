package dev.fabrictwin.analyzer.phase;

import static dev.fabrictwin.analyzer.tick.IntervalsFixture.EPOCH_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Optional;
import java.util.Random;
import java.util.function.LongBinaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.IntervalsFixture.PulseTrain;

class PhaseLockTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** The job: 1200 ms of compute and, per the twin, 800 ms of comm: a 2000 ms period while healthy. */
    private static final double COMPUTE_MS = 1200;
    private static final double TWIN_COMM_MS = 800;
    /** 100 Gb/s line rate in bytes per ms. */
    private static final double LINE_RATE = 12.5e6;
    /** What a NIC sends per iteration: the twin's comm phase at line rate. */
    private static final double BYTES = LINE_RATE * TWIN_COMM_MS;
    /** The NICs' first comm start: long before the first sample, on no sample boundary. */
    private static final double FIRST_START = EPOCH_MS - 20_000 + 1537;
    private static final long STEP_MS = 100;
    /** Clock skews of the four NICs fed: their sample boundaries never line up. */
    private static final long[] SKEWS = {0, 37, -23, 61};
    /** The latest sample end of a feed up to {@code toMs}: the most skewed NIC's last interval. */
    private static final long LATEST_AFTER_END = 61 + STEP_MS;
    /** R² under which the job tracker neither steers nor judges ({@code DetectionCalibration.Jobs#minQuality}). */
    private static final double USABLE_QUALITY = 0.5;
    /**
     * Stated tolerance on the comm time of a noiseless train: the search ends on a log grid of step
     * ln(8)/15/9 ≈ 1.5 %, so a length off the grid is found within about a cell.
     */
    private static final double COMM_TOLERANCE = 0.015;
    /** Stated tolerance on the comm start of a noiseless train (ms): a few of the finest offset cells. */
    private static final double START_TOLERANCE_MS = 30;

    /** Feeds every NIC's samples over [fromMs, toMs); {@code bytes} gives a NIC's tx bytes over [t0, t1]. */
    private static void feed(final PhaseLock lock, final long fromMs, final long toMs, final LongBinaryOperator bytes) {
        for (long t = fromMs; t < toMs; t += STEP_MS) {
            for (final long skew : SKEWS) {
                lock.observe(t + skew, t + skew + STEP_MS, bytes.applyAsLong(t + skew, t + skew + STEP_MS));
            }
        }
    }

    private static void feed(final PhaseLock lock, final PulseTrain train, final long fromMs, final long toMs) {
        feed(lock, fromMs, toMs, (t0, t1) -> Math.round(train.bytes(t0, t1)));
    }

    private static PhaseFit fitAfter(final PulseTrain train, final long toMs) {
        final PhaseLock lock = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());
        feed(lock, train, EPOCH_MS, toMs);
        return lock.fit(TWIN_COMM_MS).orElseThrow();
    }

    private static PulseTrain regular(final double commMs) {
        return PulseTrain.regular(FIRST_START, COMPUTE_MS, commMs, BYTES, EPOCH_MS + 100_000);
    }

    /** Checks the fit against the train it saw: comm time, period (compute + comm), a true comm start. */
    private static void assertLockedTo(final PhaseFit fit, final PulseTrain train, final double commMs,
                                       final long toMs) {
        assertThat(fit.commMs()).isCloseTo(commMs, within(COMM_TOLERANCE * commMs));
        assertThat(fit.periodMs()).isCloseTo(COMPUTE_MS + fit.commMs(), within(1e-6));
        assertThat(fit.lastCommStartMs()).isCloseTo(train.nearestStart(fit.lastCommStartMs()),
            within(START_TOLERANCE_MS));
        // the latest start at or before the last observation: the next one lies beyond it
        assertThat(fit.lastCommStartMs()).isLessThanOrEqualTo(toMs + LATEST_AFTER_END)
            .isGreaterThan(toMs + LATEST_AFTER_END - fit.periodMs());
    }

    @Test
    void shouldRecoverAKnownPeriodAndOffset() {
        final PulseTrain train = regular(TWIN_COMM_MS);
        final long end = EPOCH_MS + 12_000;

        final PhaseFit fit = fitAfter(train, end);

        assertLockedTo(fit, train, TWIN_COMM_MS, end);
        assertThat(fit.periodMs()).isCloseTo(2000, within(10.0));
        assertThat(fit.lastCommStartMs()).isCloseTo(EPOCH_MS + 11_537, within(10.0));
        assertThat(fit.quality()).isGreaterThan(0.99);
    }

    /** Comm phases shorter and longer than the twin's, each with its own period: compute + comm. */
    @ParameterizedTest(name = "comm {0} × the twin''s")
    @CsvSource({"0.6, 12000", "1.75, 16000", "3.5, 16000"})
    void shouldRecoverACommPhaseOtherThanTheTwinsWithItsPeriod(final double stretch, final long afterMs) {
        final double commMs = stretch * TWIN_COMM_MS;
        final PulseTrain train = regular(commMs);

        final PhaseFit fit = fitAfter(train, EPOCH_MS + afterMs);

        assertLockedTo(fit, train, commMs, EPOCH_MS + afterMs);
        assertThat(fit.periodMs()).isCloseTo(COMPUTE_MS + commMs, within(COMM_TOLERANCE * commMs));
        assertThat(fit.quality()).isGreaterThan(0.95);
    }

    @Test
    void shouldRecoverPeriodAndOffsetThroughNoise() {
        final PulseTrain train = regular(TWIN_COMM_MS);
        final long end = EPOCH_MS + 12_000;
        final Random random = new Random(42);
        final double sigma = 0.1 * LINE_RATE * STEP_MS;
        final PhaseLock lock = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());

        feed(lock, EPOCH_MS, end,
            (t0, t1) -> Math.max(0, Math.round(train.bytes(t0, t1) + sigma * random.nextGaussian())));
        final PhaseFit fit = lock.fit(TWIN_COMM_MS).orElseThrow();

        assertThat(fit.periodMs()).isCloseTo(2000, within(20.0));
        assertThat(fit.lastCommStartMs()).isCloseTo(EPOCH_MS + 11_537, within(20.0));
        // noise costs explained variance, but far less than the tracker's cut
        assertThat(fit.quality()).isBetween(0.9, 0.99);
    }

    @Test
    void shouldFollowAPeriodThatStretchesOnceTheOldIterationsLeaveTheWindow() {
        final double stretchAt = EPOCH_MS + 10_000;
        final PulseTrain train = new PulseTrain(FIRST_START, COMPUTE_MS, BYTES,
            i -> FIRST_START + i * 2000.0 < stretchAt ? TWIN_COMM_MS : 1400, EPOCH_MS + 100_000);
        final PhaseLock lock = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());
        // the window: WINDOW_PERIODS of the longest period searched (compute + 4 × the twin's comm)
        final long horizon = (long) (CAL.jobs().phase().windowPeriods() * (COMPUTE_MS + 4 * TWIN_COMM_MS));

        feed(lock, train, EPOCH_MS, (long) stretchAt);
        final PhaseFit before = lock.fit(TWIN_COMM_MS).orElseThrow();
        feed(lock, train, (long) stretchAt, (long) stretchAt + horizon);
        final PhaseFit after = lock.fit(TWIN_COMM_MS).orElseThrow();

        assertThat(horizon).isEqualTo(17_600);
        assertThat(before.periodMs()).isCloseTo(2000, within(10.0));
        assertLockedTo(after, train, 1400, (long) stretchAt + horizon);
        assertThat(after.quality()).isGreaterThan(0.95);
    }

    @Test
    void shouldGiveNoUsableFitOnPureNoise() {
        final Random random = new Random(7);
        final PhaseLock lock = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());

        feed(lock, EPOCH_MS, EPOCH_MS + 12_000, (t0, t1) -> (long) (random.nextDouble() * LINE_RATE * STEP_MS));
        final Optional<PhaseFit> fit = lock.fit(TWIN_COMM_MS);

        assertThat(fit.map(PhaseFit::quality).orElse(0.0)).isLessThan(USABLE_QUALITY);
    }

    @Test
    void shouldGiveNoFitOnAFlatLine() {
        final PhaseLock busy = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());
        final PhaseLock idle = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());

        feed(busy, EPOCH_MS, EPOCH_MS + 12_000, (t0, t1) -> 987_654_321L);
        feed(idle, EPOCH_MS, EPOCH_MS + 12_000, (t0, t1) -> 0L);

        assertThat(busy.fit(TWIN_COMM_MS)).isEmpty();
        assertThat(idle.fit(TWIN_COMM_MS)).isEmpty();
    }

    @Test
    void shouldGiveNoFitUntilTheObservationsSpanTwoPeriods() {
        final PulseTrain train = regular(TWIN_COMM_MS);
        final PhaseLock lock = new PhaseLock(COMPUTE_MS, CAL.jobs().phase());
        final long twoPeriods = (long) (2 * (COMPUTE_MS + TWIN_COMM_MS));

        for (long t = EPOCH_MS; t + STEP_MS < EPOCH_MS + twoPeriods; t += STEP_MS) {
            lock.observe(t, t + STEP_MS, train.bytes(t, t + STEP_MS));
        }
        lock.observe(EPOCH_MS + twoPeriods - STEP_MS, EPOCH_MS + twoPeriods - 1,
            train.bytes(EPOCH_MS + twoPeriods - STEP_MS, EPOCH_MS + twoPeriods - 1));
        final Optional<PhaseFit> oneMsShort = lock.fit(TWIN_COMM_MS);
        lock.observe(EPOCH_MS + twoPeriods - 1, EPOCH_MS + twoPeriods,
            train.bytes(EPOCH_MS + twoPeriods - 1, EPOCH_MS + twoPeriods));

        assertThat(oneMsShort).isEmpty();
        assertThat(lock.fit(TWIN_COMM_MS)).isPresent();
    }

    @Test
    void shouldMeasureHowMuchOfAnIntervalThePulsesCover() {
        // pulses [100, 300], [600, 800], [1100, 1300], ...
        assertThat(PhaseLock.overlap(0, 1000, 100, 200, 500)).isEqualTo(400);
        assertThat(PhaseLock.overlap(250, 650, 100, 200, 500)).isEqualTo(100);
        assertThat(PhaseLock.overlap(300, 600, 100, 200, 500)).isZero();
        assertThat(PhaseLock.overlap(-450, -350, 100, 200, 500)).isEqualTo(50);
    }

    @Test
    void shouldPlaceTheNextCommStartOnTheFittedTrain() {
        final PhaseFit fit = new PhaseFit(10_000, 800, 2000, 0.9);

        assertThat(fit.nextCommStartAfter(10_000)).isEqualTo(12_000);
        assertThat(fit.nextCommStartAfter(9_999)).isEqualTo(10_000);
        assertThat(fit.nextCommStartAfter(15_500)).isEqualTo(16_000);
        assertThat(fit.nextCommStartAfter(3_000)).isEqualTo(4_000);
    }

    @Test
    void shouldRejectANonPositiveComputePhase() {
        assertThatThrownBy(() -> new PhaseLock(0, CAL.jobs().phase())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PhaseLock(Double.NaN, CAL.jobs().phase())).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The known limit (docs/analyzer.md, "Phase lock"): the offset is searched as a fraction of the period from the
     * window's start, so a change of comm time moves the late pulses and the ±3-cell refinement cannot follow that
     * coupling. An off-grid stretch (2.5× here) ends about 4 % long and off the true start, with R² ≈ 0.75 on
     * noiseless data: still above the tracker's cut, so its slowdown reads about 4 % high. A search that fixes this
     * fails here: update the limit in docs/analyzer.md and assert the lock with {@code assertLockedTo}.
     */
    @Test
    void shouldFitAnOffGridStretchOnlyAsWellAsTheCoupledSearchAllows() {
        final double commMs = 2.5 * TWIN_COMM_MS;
        final PulseTrain train = regular(commMs);
        final long end = EPOCH_MS + 20_000;

        final PhaseFit fit = fitAfter(train, end);

        assertThat(fit.commMs() / commMs).isCloseTo(1.039, within(0.005));
        assertThat(fit.lastCommStartMs() - train.nearestStart(fit.lastCommStartMs())).isCloseTo(79, within(5.0));
        assertThat(fit.quality()).isCloseTo(0.75, within(0.01)).isGreaterThan(USABLE_QUALITY);
    }
}
