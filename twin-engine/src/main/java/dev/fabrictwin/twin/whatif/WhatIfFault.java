package dev.fabrictwin.twin.whatif;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.units.Units;

/**
 * One {@code whatif --fault}: a failure or a maintenance, in force from t = 0 for the whole run, applied to the twin
 * as a scenario's {@code faults:} are. {@code drain:DEVICE} and {@code down:DEVICE} take every link of the device
 * down (the fluid twin routes around a drained switch exactly as around a dead or removed one), {@code down:A~B} the
 * links between two devices (docs/contracts.md names a link by its two devices), {@code degrade:A~B=RATE} runs them
 * at that capacity ({@code 100G}, or {@code 50%} of their speed). Parsed without the fabric, so a malformed value is
 * refused before anything is built; {@link #toFault} then checks its devices against the fabric.
 *
 * @param capacityBps    the degraded capacity as a rate, NaN unless given as one
 * @param capacityShare  the degraded capacity as a share of the link's speed, NaN unless given as a percentage
 */
public record WhatIfFault(String text, Action action, String device, String peer, double capacityBps,
                          double capacityShare) {

    /** What happens to the target. */
    public enum Action { DRAIN, DOWN, DEGRADE }

    /** The examples every refusal ends with: the syntax teaches itself. */
    public static final String EXAMPLES = "drain:spine-3, down:leaf-4, down:leaf-2~spine-1, degrade:leaf-2~spine-1=100G "
        + "or =50%";

    /** A what-if fault lasts for the whole run; a century is past any run's end and still fits a Duration in nanos. */
    private static final Duration FOREVER = Duration.ofDays(36_500);

    /** Parses one {@code --fault} value; a bad one is an {@link IllegalArgumentException} naming the bad part. */
    public static WhatIfFault parse(final String text) {
        final String t = text.trim();
        final int colon = t.indexOf(':');
        if (colon < 0) {
            throw bad(text, "expected ACTION:TARGET");
        }
        final String actionText = t.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        final Action action = switch (actionText) {
            case "drain" -> Action.DRAIN;
            case "down" -> Action.DOWN;
            case "degrade" -> Action.DEGRADE;
            default -> throw bad(text, "unknown action '" + actionText + "' (expected drain, down or degrade)");
        };
        String target = t.substring(colon + 1).trim();
        double rate = Double.NaN;
        double share = Double.NaN;
        final int eq = target.indexOf('=');
        if (action == Action.DEGRADE) {
            if (eq < 0) {
                throw bad(text, "degrade needs the capacity left, e.g. degrade:leaf-2~spine-1=100G");
            }
            final String capacity = target.substring(eq + 1).trim();
            target = target.substring(0, eq).trim();
            if (capacity.endsWith("%")) {
                share = percent(text, capacity) / 100;
            } else {
                try {
                    rate = Units.parseBitRate(capacity);
                } catch (IllegalArgumentException e) {
                    throw bad(text, "capacity '" + capacity + "' is neither a rate (100G) nor a percentage (50%)");
                }
            }
        } else if (eq >= 0) {
            throw bad(text, "'" + target.substring(eq) + "': only degrade takes a capacity");
        }
        final int tilde = target.indexOf('~');
        final String device = (tilde < 0 ? target : target.substring(0, tilde)).trim();
        final String peer = tilde < 0 ? null : target.substring(tilde + 1).trim();
        if (device.isEmpty() || peer != null && peer.isEmpty()) {
            throw bad(text, "target '" + target + "' names no device");
        }
        if (action == Action.DRAIN && peer != null) {
            throw bad(text, "drain takes a device (drain:spine-3); a link goes with down:" + target);
        }
        if (action == Action.DEGRADE && peer == null) {
            throw bad(text, "degrade takes a link, its two devices (degrade:leaf-2~spine-1=100G)");
        }
        return new WhatIfFault(t, action, device, peer, rate, share);
    }

    /**
     * The scenario fault this stands for, from t = 0 to past any run's end: LINK_DOWN of the device's or the pair's
     * links, or LINK_DEGRADED to the capacity asked (with no FEC or FCS errors: only the speed is in question). A
     * device or link the fabric lacks, or a degraded capacity not below the link's speed, is an
     * {@link IllegalArgumentException} naming it.
     */
    public FaultSpec toFault(final Fabric fabric) {
        if (fabric.node(device).isEmpty()) {
            throw bad(text, "no device '" + device + "' in the fabric");
        }
        if (peer == null) {
            return new FaultSpec(text, FaultType.LINK_DOWN, FaultTarget.device(device), Duration.ZERO, FOREVER, Map.of());
        }
        if (fabric.node(peer).isEmpty()) {
            throw bad(text, "no device '" + peer + "' in the fabric");
        }
        final List<Link> links = fabric.linksBetween(device, peer);
        if (links.isEmpty()) {
            throw bad(text, device + " and " + peer + " are not linked");
        }
        final FaultTarget target = FaultTarget.link(device, peer);
        if (action == Action.DOWN) {
            return new FaultSpec(text, FaultType.LINK_DOWN, target, Duration.ZERO, FOREVER, Map.of());
        }
        final double speed = links.stream().mapToDouble(Link::capacityBps).min().orElseThrow();
        final double fraction = Double.isNaN(capacityShare) ? capacityBps / speed : capacityShare;
        if (!(fraction < 1)) {
            throw bad(text, Units.formatBitRate(capacityBps) + " is not below the link's " + Units.formatBitRate(speed));
        }
        return new FaultSpec(text, FaultType.LINK_DEGRADED, target, Duration.ZERO, FOREVER,
            Map.of("capacity", fraction, "fecErrorRate", 0.0, "crcErrorRate", 0.0));
    }

    private static double percent(final String text, final String capacity) {
        final double p;
        try {
            p = Double.parseDouble(capacity.substring(0, capacity.length() - 1).trim());
        } catch (NumberFormatException e) {
            throw bad(text, "capacity '" + capacity + "' is not a percentage (50%)");
        }
        if (!(p > 0 && p < 100)) {
            throw bad(text, "capacity '" + capacity + "' must be above 0% and below 100%");
        }
        return p;
    }

    private static IllegalArgumentException bad(final String text, final String why) {
        return new IllegalArgumentException("--fault '" + text + "': " + why + " (e.g. " + EXAMPLES + ")");
    }
}
