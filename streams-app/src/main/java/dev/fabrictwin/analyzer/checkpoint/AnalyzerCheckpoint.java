package dev.fabrictwin.analyzer.checkpoint;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * The whole analysis state (twin replica, phase lock, detector windows and baselines, job-health trackers, tick
 * assembly, alert lifecycle) as bytes and back, so a restarted or moved task continues exactly where the last
 * committed one stopped. Only the same build can continue it; what an upgraded build takes back is the
 * checkpoint's other section, the {@link LearnedState}. Java serialization of the object graph, deflated: every stateful class declares what it
 * keeps (and {@code transient} what it can rebuild), and no second model of the state can drift from the first.
 *
 * <p>Only the analyzer's own classes and the JDK's collections are read back ({@link #FILTER}): the bytes come
 * from the application's own changelog, but a filter costs nothing and refuses any gadget chain.
 */
public final class AnalyzerCheckpoint {

    /** Classes a checkpoint may hold; anything else is rejected before it is instantiated. */
    static final ObjectInputFilter FILTER = ObjectInputFilter.Config.createFilter(
        "maxdepth=200;dev.fabrictwin.**;java.lang.*;java.util.*;java.util.concurrent.*;java.time.*;"
            + "com.fasterxml.jackson.databind.node.*;[*;!*");

    private AnalyzerCheckpoint() {
    }

    /** The state as deflated bytes. */
    public static byte[] write(final Object state) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        final Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (ObjectOutputStream out = new ObjectOutputStream(new DeflaterOutputStream(bytes, deflater, 1 << 16))) {
            out.writeObject(state);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot checkpoint the analysis state", e);
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    /**
     * The state back; {@link IncompatibleCheckpointException} when the bytes were written by another version of
     * the analyzer (its classes changed) or are not a checkpoint: the caller then starts afresh.
     */
    public static <T> T read(final byte[] checkpoint, final Class<T> type) {
        try (ObjectInputStream in = new ObjectInputStream(new InflaterInputStream(new ByteArrayInputStream(checkpoint)))) {
            in.setObjectInputFilter(FILTER);
            return type.cast(in.readObject());
        } catch (InvalidClassException | ClassNotFoundException | ClassCastException e) {
            throw new IncompatibleCheckpointException(e.toString());
        } catch (IOException e) {
            throw new IncompatibleCheckpointException("unreadable checkpoint: " + e);
        }
    }

    /** A checkpoint this build cannot continue from. */
    public static final class IncompatibleCheckpointException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient LearnedState learned;

        public IncompatibleCheckpointException(final String reason) {
            this(reason, null);
        }

        public IncompatibleCheckpointException(final String reason, final LearnedState learned) {
            super(reason);
            this.learned = learned;
        }

        /** What the checkpoint's learned section holds, for a fresh analysis to take back; empty when none. */
        public Optional<LearnedState> learned() {
            return Optional.ofNullable(learned);
        }
    }
}
