package dev.fabrictwin.twin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The checkpointable generator draws exactly what the JDK's would: twin results do not move. */
class SplitMixTest {

    @Test
    void drawsTheJdkSequenceForEveryKindOfDraw() {
        for (final long seed : new long[] {0, 1, -7, 42L ^ 0x9E3779B97F4A7C15L, Long.MIN_VALUE}) {
            final SplittableRandom jdk = new SplittableRandom(seed);
            final SplitMix ours = new SplitMix(seed);
            for (int i = 0; i < 20_000; i++) {
                switch (i % 5) {
                    case 0 -> assertThat(ours.nextLong()).isEqualTo(jdk.nextLong());
                    case 1 -> assertThat(ours.nextDouble()).isEqualTo(jdk.nextDouble());
                    case 2 -> assertThat(ours.nextInt(7 + i % 1000)).isEqualTo(jdk.nextInt(7 + i % 1000));
                    case 3 -> assertThat(ours.nextInt(1 << (i % 31))).isEqualTo(jdk.nextInt(1 << (i % 31)));
                    default -> assertThat(ours.nextInt(Integer.MAX_VALUE - i)).isEqualTo(jdk.nextInt(Integer.MAX_VALUE - i));
                }
            }
        }
    }
}
