package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * PFC pauses at the edge of a shard, where its pause walk cannot go on (docs/analyzer.md, "Sharding"). Pauses flow
 * against the traffic: a storm under one pod pauses a spine's port towards that pod's leaf, the spine's queue fills,
 * and the spine pauses its ports towards every other pod — links other shards judge.
 * <ul>
 * <li>an <em>entry</em>: a pause sender on a boundary device (a spine) that no port of this shard explains; its
 *     finding waits for the correlation stage, with what this shard saw congested there, if anything;</li>
 * <li>an <em>exit</em>: a port of this shard pausing a boundary device, and where its own walk ended (the storming
 *     port, or a congested link) — what explains the other shards' entries at that device.</li>
 * </ul>
 */
public record PfcBoundary(List<Entry> entries, List<Exit> exits) implements Serializable {

    public static final PfcBoundary NONE = new PfcBoundary(List.of(), List.of());

    /**
     * A pause {@code sender} (pausing its peer {@code share} of the tick) whose walk stopped at {@code stop}, a port of
     * boundary {@code device} that nothing in this shard explains: the cause lies in another shard, or {@code stop} is
     * the origin. {@code congested} is what this shard saw overloaded on that device (null for none).
     */
    public record Entry(String device, PortRef sender, double share, PortRef stop, Entity congested) implements Serializable {
    }

    /** A port pausing boundary {@code device}, whose walk ended at {@code cause} (a port or a link). */
    public record Exit(String device, Entity cause, double share) implements Serializable {
    }

    /** Collects a tick's entries and exits (the detector's side). */
    public static final class Builder {
        private final List<Entry> entries = new ArrayList<>();
        private final List<Exit> exits = new ArrayList<>();

        public void entry(final Entry e) {
            entries.add(e);
        }

        public void exit(final Exit e) {
            exits.add(e);
        }

        public PfcBoundary build() {
            return entries.isEmpty() && exits.isEmpty() ? NONE : new PfcBoundary(List.copyOf(entries), List.copyOf(exits));
        }
    }
}
