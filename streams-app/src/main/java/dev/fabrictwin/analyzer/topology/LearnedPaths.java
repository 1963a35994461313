package dev.fabrictwin.analyzer.topology;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.checkpoint.LearnedState;
import dev.fabrictwin.analyzer.twin.PathLearner;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.workload.PinSpec;

/**
 * The paths a running analysis learned ({@link PathLearner}'s {@code learned-paths}), read by a reader outside it —
 * the what-if — off the changelog of its checkpoint store: the learned section of each checkpoint, decoded with the
 * part's own codec, as pins a scenario takes. Every analysis task (one per shard) keeps its own checkpoint, on its own
 * partition of the changelog; the correlation stage of a sharded analysis learns no paths.
 */
public final class LearnedPaths {

    /** A checkpoint's pins, one per job flow, named; {@code dropped}: those naming a port the fabric lacks. */
    public record Read(List<PinSpec> pins, int dropped) {
        public Read {
            pins = List.copyOf(pins);
        }
    }

    private LearnedPaths() {
    }

    /** The changelog topic of the analysis checkpoints of the application {@code applicationId}. */
    public static String changelogTopic(final String applicationId) {
        return applicationId + "-" + AnalysisCheckpoints.CHECKPOINT_STORE + "-changelog";
    }

    /** The changelog key whose record marks a learned section written (its timestamp is the checkpoint's event time). */
    public static String sectionKey() {
        return AnalysisCheckpoints.LEARNED + AnalysisCheckpoints.META;
    }

    /**
     * The pins of one checkpoint store's latest values by key, on {@code fabric}; empty when it holds no learned
     * section this build reads. A section without paths (an analysis that does not learn them), or at a codec version
     * this build cannot read, has none.
     */
    public static Optional<Read> read(final Map<String, byte[]> checkpoint, final Fabric fabric) {
        if (checkpoint.get(sectionKey()) == null) {
            return Optional.empty();
        }
        final LearnedState state;
        try {
            state = LearnedState.fromBytes(AnalysisCheckpoints.joined(checkpoint::get, AnalysisCheckpoints.LEARNED));
        } catch (IllegalArgumentException | AnalyzerCheckpoint.IncompatibleCheckpointException e) {
            return Optional.empty();
        }
        final PathLearner learner = new PathLearner(fabric, DetectionCalibration.defaults().paths());
        final LearnedState.Part part = state.parts().get(learner.learnedName());
        if (part == null || part.bytes().length < Integer.BYTES) {
            return Optional.of(new Read(List.of(), 0));
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(part.bytes()))) {
            if (!learner.readLearned(in, part.version())) {
                return Optional.of(new Read(List.of(), 0));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        final List<PinSpec> pins = learner.pinned().stream().map(p -> pin(fabric, p)).toList();
        return Optional.of(new Read(pins, ByteBuffer.wrap(part.bytes()).getInt() - pins.size()));
    }

    /** The pin as a scenario names it: its NICs, and the switch its pinned first hop leads to. */
    private static PinSpec pin(final Fabric fabric, final FluidSimulation.Pin p) {
        return new PinSpec(name(p.source()), name(p.destination()),
            fabric.node(fabric.link(p.link()).other(p.node())).name());
    }

    private static String name(final PortRef port) {
        return port.device() + "/" + port.port();
    }
}
