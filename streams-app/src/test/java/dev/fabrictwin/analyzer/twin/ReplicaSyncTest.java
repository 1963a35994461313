package dev.fabrictwin.analyzer.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.tick.TickAssembler;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.CounterNames;

class ReplicaSyncTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long EPOCH_MS = 1_700_000_000_000L;
    private static final long TICK_MS = 1_000;

    private static TwinReplica replica(final long epochMs) {
        final ObjectNode job = JSON.createObjectNode().put("id", "j").put("pattern", "ring-allreduce")
            .put("bytesPerIteration", 1_000_000_000L).put("iterationPeriodMs", 2000L).put("commFraction", 0.4);
        job.putArray("hostList").add("host-0").add("host-1").add("host-2").add("host-3");
        return TwinReplica.from(FabricJson.toJson(new SpineLeaf(2, 2, 2, 1, 100e9, 100e9, Technology.ROCE_V2)
            .build("lab"), JSON), List.of(job), epochMs);
    }

    private static PortInterval operUp(final PortRef port, final long t1, final boolean up) {
        return new PortInterval(port.device(), port.port(), t1 - 500, t1, Map.of(),
            Map.of(CounterNames.OPER_UP, up ? 1.0 : 0.0), false, 0, false);
    }

    @Test
    void shouldTellOnlyTheLinksAReportChangesInTimeThenPortOrder() {
        final TwinReplica twin = replica(EPOCH_MS);
        final Fabric fabric = twin.fabric();
        final TickAssembler ticks = new TickAssembler(TICK_MS, 0, fabric.directedLinkCount());
        // one link's port goes down late in the tick, another link's earlier; every other port reports up, as always
        final int late = 2 * 3 + 1;
        final int early = 2 * 2;
        final List<Tick> closed = new ArrayList<>();
        for (int port = 0; port < fabric.directedLinkCount(); port++) {
            final PortRef ref = fabric.txPort(port);
            closed.addAll(ticks.add(operUp(ref, EPOCH_MS + (port == late ? 900 : port == early ? 600 : 800),
                port != late && port != early), port));
        }
        closed.addAll(ticks.flush());

        final ReplicaSync sync = ReplicaSync.operStates(closed.get(0), twin);

        assertThat(sync.operStates()).containsExactly(
            new ReplicaSync.OperState(EPOCH_MS + 600, early, false),
            new ReplicaSync.OperState(EPOCH_MS + 800, early ^ 1, true),
            new ReplicaSync.OperState(EPOCH_MS + 800, late ^ 1, true),
            new ReplicaSync.OperState(EPOCH_MS + 900, late, false));
        assertThat(sync.jobs()).isNull();
        assertThat(sync.retimes()).isEmpty();
        assertThat(sync.pins()).isEmpty();
    }

    @Test
    void shouldApplyALinkReportThroughTheOneSteeringMethod() {
        final TwinReplica twin = replica(EPOCH_MS);
        final int port = 2 * 2;

        assertThat(twin.changesLink(port, false)).isTrue();
        twin.steer(ReplicaSync.operState(operUp(twin.fabric().txPort(port), EPOCH_MS + 1_000, false), port));

        assertThat(twin.changesLink(port, false)).as("the link is down now").isFalse();
        assertThat(twin.changesLink(port ^ 1, true)).as("both of its directions").isTrue();
    }

    @Test
    void shouldMoveTheNextCommPhaseWhereARetimeSays() {
        final TwinReplica twin = replica(EPOCH_MS);
        twin.expected(operUp(twin.fabric().txPort(0), EPOCH_MS + 100, true)); // runs it into the first compute phase
        final double own = twin.nextCommStartMs("j");

        twin.steer(ReplicaSync.retimes(List.of(new ReplicaSync.Retime("j", own + 300))));

        assertThat(own).as("one compute phase after the epoch").isCloseTo(EPOCH_MS + 1_200, within(1e-6));
        assertThat(twin.nextCommStartMs("j")).isCloseTo(own + 300, within(1e-6));
    }

    @Test
    void shouldForgetHistoryOnlyWhenAskedTo() {
        final ReplicaSync nothing = ReplicaSync.afterTick(List.of(), new ReplicaSync.Pins(List.of(), EPOCH_MS),
            EPOCH_MS - 60_000);

        assertThat(nothing.pins()).as("no pins intended, none applied").isEmpty();
        assertThat(nothing.forgetBeforeMs()).isEqualTo(EPOCH_MS - 60_000);
        assertThat(ReplicaSync.retimes(List.of()).forgetBeforeMs()).isEqualTo(Long.MIN_VALUE);
    }
}
