package dev.fabrictwin.analyzer.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Detectors;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.PfcBoundary;
import dev.fabrictwin.analyzer.detect.PfcOriginDetector;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;

/**
 * A PFC storm whose pauses cross from one shard into another through a spine is put together by the correlation
 * stage as the whole-fabric walk would have: the same origin, the same victims, nothing more.
 */
class PfcAcrossShardsTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** Two leaves, two spines: leaf-0 with its hosts and uplinks is shard 0, leaf-1's shard 1, the spines between. */
    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final ShardMap shards = ShardMap.of(hand.fabric(), 2);
    private final PfcOriginDetector detector = new PfcOriginDetector();

    private Tick pausing(final double share, final String... senders) {
        return hand.pausing(share, senders).build();
    }

    /** What each shard's detector reports on its own ports, put together by the correlation stage. */
    private List<Finding> sharded(final Tick whole) {
        final ShardTick[] parts = new ShardTick[shards.shards()];
        for (int s = 0; s < parts.length; s++) {
            final PortTick[] own = new PortTick[whole.byIndex().length];
            for (final PortTick t : whole.ports()) {
                if (shards.ofPort(t.index()) == s) {
                    own[t.index()] = t;
                }
            }
            final Tick tick = Tick.of(whole.index(), whole.startMs(), whole.endMs(), own);
            final PfcBoundary.Builder boundary = new PfcBoundary.Builder();
            final List<Finding> found = new ArrayList<>();
            detector.detect(new TickContext(tick, hand.twin(), hand.config(), j -> 1.0).sharded(shards, boundary), found);
            parts[s] = new ShardTick(s, tick.index(), tick.startMs(), tick.endMs(), found, List.of(), boundary.build());
        }
        return ShardedCorrelation.findings(parts, job -> 0, Detectors.all(), CAL);
    }

    private static List<String> described(final List<Finding> findings) {
        return findings.stream().map(f -> f.entity().key() + (f.rootCandidate() ? " root" : " <- " + f.cause().key()))
            .sorted().toList();
    }

    @Test
    void pausesCrossingASpineIntoAnotherShardAreVictimsOfTheStormingNic() {
        final Tick tick = pausing(0.3, "host-0/nic0", "leaf-0/eth2", "spine-0/eth1", "leaf-1/eth0");
        final List<Finding> whole = hand.detect(detector, tick);

        assertThat(described(whole)).containsExactly("port:host-0/nic0 root",
            "port:leaf-0/eth2 <- port:host-0/nic0", "port:leaf-1/eth0 <- port:host-0/nic0",
            "port:spine-0/eth1 <- port:host-0/nic0");
        assertThat(described(sharded(tick))).isEqualTo(described(whole));
    }

    @Test
    void aSpinePortPausingWithNothingBehindItInAnyShardIsTheOrigin() {
        final Tick tick = pausing(0.1, "spine-0/eth1", "leaf-1/eth0");
        final List<Finding> whole = hand.detect(detector, tick);

        assertThat(described(whole)).containsExactly("port:leaf-1/eth0 <- port:spine-0/eth1", "port:spine-0/eth1 root");
        assertThat(described(sharded(tick))).isEqualTo(described(whole));
    }

    @Test
    void eachShardAloneWouldHaveBlamedTheSpine() {
        final Tick tick = pausing(0.3, "host-0/nic0", "leaf-0/eth2", "spine-0/eth1", "leaf-1/eth0");
        final PortTick[] own = new PortTick[tick.byIndex().length];
        tick.ports().stream().filter(t -> shards.ofPort(t.index()) == 1).forEach(t -> own[t.index()] = t);
        // shard 1 unsharded (no boundary): the walk stops at spine-0, which it takes for the origin
        assertThat(described(hand.detect(detector, Tick.of(1, tick.startMs(), tick.endMs(), own))))
            .contains("port:spine-0/eth1 root");
    }
}
