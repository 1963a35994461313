package dev.fabrictwin.analyzer.detect;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code LINK_FLAP}: a link that went down and came back {@link DetectionCalibration.LinkFlap#flaps} times or more within
 * {@link DetectionCalibration.LinkFlap#windowSeconds}. A port's carrier transitions in a tick are its {@code link_flaps}
 * counter's increase when it has one (a flap shorter than the poll, which {@code oper_up} never shows, is counted there),
 * else the changes of its {@code oper_up} between ticks; a link's are the larger of its two ends' (both ends see the same
 * flap), and a flap is a down and an up: transitions / 2, rounded up. One planned change (a shut and no-shut, a peer's
 * reboot, a reseated cable) is one or two flaps; a link that keeps flapping is a root on the link, and the jobs crossing
 * it its victims, as for the other link findings.
 */
final class LinkFlapDetector implements Detector {

    /** Each port's last reported {@code oper_up} (1, 0; -1 unknown), by port index (sized at the first tick). */
    private byte[] lastUp;
    /** Each flapping link's transitions per tick over the window, only for links that showed one (most never do). */
    private final Map<Integer, Rolling> recent = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration.LinkFlap cal = context.config().calibration().linkFlap();
        if (lastUp == null) {
            lastUp = new byte[context.fabric().directedLinkCount()];
            Arrays.fill(lastUp, (byte) -1);
        }
        final Map<Integer, Double> transitions = new HashMap<>();
        for (final PortTick t : context.ports()) {
            final double seen = transitions(t);
            if (seen > 0) {
                transitions.merge(t.index() / 2, seen, Math::max);
            }
        }
        final int window = context.ticks((int) Math.ceil(cal.windowSeconds()));
        transitions.keySet().forEach(link -> recent.computeIfAbsent(link, l -> new Rolling(window)));
        for (final var it = recent.entrySet().iterator(); it.hasNext();) {
            final var e = it.next();
            final Rolling w = e.getValue();
            w.add(transitions.getOrDefault(e.getKey(), 0.0));
            if (w.sum() <= 0) {
                it.remove(); // steady for a whole window: nothing to keep
                continue;
            }
            final double flaps = Math.ceil(w.sum() / 2);
            if (flaps >= cal.flaps()) {
                final Link link = context.fabric().link(e.getKey());
                out.add(Finding.root(FaultType.LINK_FLAP, Entity.link(link), CounterNames.LINK_FLAPS, flaps, 0,
                    Severity.CRITICAL, String.format("link %s %s — %s %s flapped %.0f times in the last %.0f s: "
                        + "its traffic stalls and re-routes at every flap", link.lower().device(), link.lower().port(),
                        link.upper().device(), link.upper().port(), flaps, cal.windowSeconds())));
            }
        }
    }

    /** A port's carrier transitions in this tick: its counter's increase, else a change of its reported state. */
    private double transitions(final PortTick t) {
        final double operUp = t.gauge(CounterNames.OPER_UP);
        final byte before = lastUp[t.index()];
        if (!Double.isNaN(operUp)) {
            lastUp[t.index()] = (byte) (operUp != 0 ? 1 : 0);
        }
        if (t.reports(CounterIndex.LINK_FLAPS)) {
            return t.observed(CounterIndex.LINK_FLAPS);
        }
        return Double.isNaN(operUp) || before < 0 || before == lastUp[t.index()] ? 0 : 1;
    }
}
