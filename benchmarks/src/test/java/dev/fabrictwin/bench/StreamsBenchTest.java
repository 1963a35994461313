package dev.fabrictwin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;

class StreamsBenchTest {

    @Test
    void theCoreIsTimedOverEveryGeneratedSampleOfTheCapture() {
        final Scenario tiny = ScaleBench.scenario(96, 8);
        final List<Sample> generated = new ArrayList<>();
        new SyntheticCluster(tiny, tiny.telemetry()).run(generated::add, n -> { });
        final List<String> progress = new ArrayList<>();

        final StreamsBench.CoreRate rate = StreamsBench.coreSamplesPerSec(tiny, progress::add);

        assertThat(rate.samples()).isEqualTo(generated.size()).isPositive();
        // each port's first sample only starts its first interval; a late one makes none
        assertThat(rate.intervals()).isPositive().isLessThanOrEqualTo(generated.size() - 96L);
        assertThat(rate.perSec()).isPositive().isFinite();
        assertThat(progress).hasSize(StreamsBench.WARM_UP_PASSES + StreamsBench.MEASURED_PASSES);
    }
}
