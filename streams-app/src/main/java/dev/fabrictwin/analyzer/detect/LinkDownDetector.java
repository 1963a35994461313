package dev.fabrictwin.analyzer.detect;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * {@code LINK_DOWN}: either end reports {@code oper_up = 0} on a link the fabric declares. The twin replica
 * follows the reported state (it re-routes and expects the siblings to carry the traffic), so nothing else
 * alerts on the move; this detector is what says the link is down. A flapping link stays one alert: it
 * resolves only after {@code resolveAfterTicks} clean ticks.
 */
final class LinkDownDetector implements Detector {

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final Set<Integer> seen = new HashSet<>();
        for (final PortTick t : context.ports()) {
            if (!TickContext.down(t)) {
                continue;
            }
            final Link link = context.fabric().linkAt(t.port()).orElse(null);
            if (link == null || !seen.add(link.index())) {
                continue;
            }
            out.add(Finding.root(FaultType.LINK_DOWN, Entity.link(link), "oper_up", 0, 1, Severity.CRITICAL,
                "link " + link.lower().device() + "—" + link.upper().device() + " is down (reported by "
                    + t.port().device() + " " + t.port().port() + "); traffic has moved to its siblings"));
        }
    }
}
