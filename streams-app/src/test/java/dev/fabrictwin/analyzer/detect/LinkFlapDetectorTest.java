package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

class LinkFlapDetectorTest {

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LinkFlapDetector detector = new LinkFlapDetector();

    /** Every port up; where {@code flapAt} holds the tick, leaf-0 eth2 and spine-0 eth0 (one link) count a down and an up. */
    private HandTicks.TickBuilder counted(final int i, final Set<Integer> flapAt) {
        final HandTicks.TickBuilder t = hand.tick(i).everyPort();
        final double transitions = flapAt.contains(i) ? 2 : 0;
        return t.port("leaf-0", "eth2").observed(CounterNames.LINK_FLAPS, transitions)
            .port("spine-0", "eth0").observed(CounterNames.LINK_FLAPS, transitions);
    }

    @Test
    void shouldFindALinkWhoseCarrierCountersShowThreeFlapsThatOperUpNeverShows() {
        final HandTicks.Run run = hand.drive(detector, 8, i -> counted(i, Set.of(2, 4, 6)));

        assertThat(run.upTo(5)).as("two flaps, both ends counting each once: one link, not four flaps").isEmpty();
        assertThat(run.tick(6)).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.LINK_FLAP, Entity.link("leaf-0", "spine-0"), "link_flaps", 3, 0,
                Severity.CRITICAL, null));
            assertThat(f.summary()).contains("leaf-0 eth2", "spine-0 eth0", "flapped 3 times in the last 300 s");
        });
        assertThat(run.tick(8)).as("still within the window").hasSize(1);
    }

    @Test
    void shouldCountDownsAndUpsOfOperUpOnALinkWhosePortsHaveNoCounter() {
        final HandTicks.Run run = hand.drive(detector, 7, i -> i % 2 == 0
            ? hand.tick(i).everyPort().port("leaf-1", "eth3").down()
            : hand.tick(i).everyPort());

        assertThat(run.upTo(5)).isEmpty();
        assertThat(run.tick(6)).extracting(Finding::entity).containsExactly(Entity.link("leaf-1", "spine-1"));
        assertThat(run.tick(6).get(0).observed()).isEqualTo(3);
    }

    @Test
    void shouldLetOnePlannedShutAndNoShutPass() {
        final HandTicks.Run run = hand.drive(detector, 40, i -> i >= 10 && i < 30
            ? hand.tick(i).everyPort().port("leaf-1", "eth3").down()
            : hand.tick(i).everyPort());

        assertThat(run.all()).isEmpty();
    }

    @Test
    void shouldForgetFlapsOlderThanTheWindow() {
        final HandTicks.Run run = hand.drive(detector, 450, i -> counted(i, Set.of(1, 160, 320, 330)));

        assertThat(run.upTo(329)).as("three flaps, never three within 300 s").isEmpty();
        assertThat(run.tick(330)).hasSize(1);
    }
}
