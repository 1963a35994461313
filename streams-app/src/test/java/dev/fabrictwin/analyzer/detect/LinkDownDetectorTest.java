package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

class LinkDownDetectorTest {

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LinkDownDetector detector = new LinkDownDetector();

    @Test
    void shouldReportTheLinkAsDownWhenOneEndReportsOperDown() {
        final List<Finding> out = hand.tick(1).everyPort().port("leaf-0", "eth2").down().detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.LINK_DOWN, Entity.link("leaf-0", "spine-0"), "oper_up", 0, 1,
                Severity.CRITICAL, null));
            assertThat(f.summary()).contains("leaf-0—spine-0", "reported by leaf-0 eth2");
        });
    }

    @Test
    void shouldNameTheLinkTheSameWayWhenTheUpperEndReportsIt() {
        final List<Finding> out = hand.tick(1).everyPort().port("spine-1", "eth1").down().detect(detector);

        assertThat(out).extracting(Finding::entity).containsExactly(Entity.link("leaf-1", "spine-1"));
    }

    @Test
    void shouldReportALinkOnceWhenBothEndsReportItDown() {
        final List<Finding> out = hand.tick(1).everyPort()
            .port("leaf-0", "eth2").down()
            .port("spine-0", "eth0").down()
            .detect(detector);

        assertThat(out).extracting(Finding::entity).containsExactly(Entity.link("leaf-0", "spine-0"));
    }

    @Test
    void shouldReportEachDownLinkOnItsOwn() {
        final List<Finding> out = hand.tick(1).everyPort()
            .port("host-0", "nic0").down()
            .port("leaf-1", "eth3").down()
            .detect(detector);

        assertThat(out).extracting(Finding::entity)
            .containsExactlyInAnyOrder(Entity.link("host-0", "leaf-0"), Entity.link("leaf-1", "spine-1"));
    }

    @Test
    void shouldFindNothingWhenEveryPortIsUp() {
        assertThat(hand.tick(1).everyPort().detect(detector)).isEmpty();
    }

    @Test
    void shouldNotTakeAMissingOperUpGaugeForDown() {
        final List<Finding> out = hand.tick(1).everyPort().port("leaf-0", "eth2").withoutGauge(CounterNames.OPER_UP)
            .detect(detector);

        assertThat(out).isEmpty();
    }

    @Test
    void shouldReportADownLinkEvenWhenItsPortsCountersAreUnreliable() {
        final List<Finding> out = hand.tick(1).port("leaf-0", "eth3").down().reset().gap().detect(detector);

        assertThat(out).extracting(Finding::entity).containsExactly(Entity.link("leaf-0", "spine-1"));
    }

    @Test
    void shouldReportTheLinkInEveryTickItStaysDownAndStopWhenItComesBack() {
        final HandTicks.Run perTick = hand.drive(detector, 4, i -> i <= 2
            ? hand.tick(i).everyPort().port("leaf-1", "eth0").down()
            : hand.tick(i).everyPort());

        assertThat(perTick.tick(1)).extracting(Finding::entity).containsExactly(Entity.link("host-2", "leaf-1"));
        assertThat(perTick.tick(2)).extracting(Finding::entity).containsExactly(Entity.link("host-2", "leaf-1"));
        assertThat(perTick.tick(3)).isEmpty();
        assertThat(perTick.tick(4)).isEmpty();
    }
}
