package dev.fabrictwin.analyzer.rates;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WrapOrResetTest {

    private static final double LINE_1S = 50e9 * 1.1; // bytes a 400G port can move in 1 s, with slack

    @Test
    void shouldTakeARiseAsAPlainIncrease() {
        assertThat(WrapOrReset.step(1_000, 6_000, LINE_1S, -1, true)).isEqualTo(CounterStep.normal(5_000));
    }

    @Test
    void shouldTreatADecreaseNearThe64BitLimitAsAWrap() {
        final long previous = -1_000L; // 2^64 - 1000 as unsigned
        final CounterStep s = WrapOrReset.step(previous, 4_000, LINE_1S, -1, true);

        assertThat(s.kind()).isEqualTo(CounterStep.Kind.WRAPPED);
        assertThat(s.delta()).isEqualTo(5_000);
    }

    @Test
    void shouldTreatADecreaseFarFromTheLimitAsAResetNotASpike() {
        final CounterStep s = WrapOrReset.step(9_000_000_000_000L, 1_234, LINE_1S, -1, true);

        assertThat(s.kind()).isEqualTo(CounterStep.Kind.RESET);
        assertThat(s.delta()).isEqualTo(1_234);
        assertThat(s.trustworthy()).isFalse();
    }

    @Test
    void shouldWrapA32BitCounterOnceWhenThatIsPlausible() {
        final CounterStep s = WrapOrReset.step(0xFFFF_F000L, 0x1000L, 10_000, -1, false);

        assertThat(s.kind()).isEqualTo(CounterStep.Kind.WRAPPED);
        assertThat(s.delta()).isEqualTo(0x2000L);
        assertThat(s.wraps()).isEqualTo(1);
    }

    @Test
    void shouldCountSeveralWrapsOfA32BitByteCounterUsingTheTwinsExpectation() {
        // 400G for 1 s moves 50 GB: a 32-bit counter wraps 11 times and ends 2,843,545,088 past where it was
        final long previous = 1_000_000_000L;
        final long trueDelta = 50_000_000_000L;
        final long current = (previous + trueDelta) & 0xFFFF_FFFFL;

        final CounterStep s = WrapOrReset.step(previous, current, LINE_1S, 49e9, false);

        assertThat(s.kind()).isEqualTo(CounterStep.Kind.WRAPPED);
        assertThat(s.delta()).isEqualTo(trueDelta);
        assertThat(s.wraps()).isEqualTo(11);
    }

    @Test
    void shouldCallAnImpossibleJumpAReset() {
        assertThat(WrapOrReset.step(0, 10_000_000, 1_000, -1, true).kind()).isEqualTo(CounterStep.Kind.RESET);
    }
}
