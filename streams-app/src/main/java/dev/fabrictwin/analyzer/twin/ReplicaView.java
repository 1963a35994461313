package dev.fabrictwin.analyzer.twin;

import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.LinkState;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * The replica as detectors, the job tracker and the path learner see it: queries only. What they would change in it
 * they return as intentions ({@link ReplicaSync}), which the analysis applies in one place and in a fixed order.
 */
public interface ReplicaView {

    Fabric fabric();

    /** The jobs running at the replica's current time (started, not ended), in declaration order. */
    List<PlacedJob> jobs();

    /** The jobs running at epoch ms {@code atMs} (before the replica's start: those running at its start). */
    List<PlacedJob> jobsAt(long atMs);

    /** The twin's state of a directed link with the most flows during [t0, t1] (epoch ms). */
    LinkState busiestState(int directedLink, long t0, long t1);

    /** The twin's duration of the job's last comm phase (ms), NaN before its first one ends. */
    double lastCommMs(String jobId);

    /** When the twin starts the job's next comm phase (epoch ms), NaN while one is running. */
    double nextCommStartMs(String jobId);

    /** The first hops a flow between two NICs can take at its source switch, and the path behind each. */
    Router.Choices choices(PortRef source, PortRef destination);

    /** The first hop (physical link) the replica routes the flow between two NICs on now, or -1. */
    int firstHop(PortRef source, PortRef destination);
}
