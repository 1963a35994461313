package dev.fabrictwin.analyzer.checkpoint;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the analysis learned, part by part ({@link LearnedPart}), for the fabric it learned it on: the section of a
 * checkpoint an upgrade keeps. Its format: {@value #MAGIC}, a format version, the fabric's fingerprint, then per part
 * its name, its codec's version and its bytes. A part this build does not know, or at a version it cannot read, is
 * skipped; a different fabric (another topology: port indexes mean other ports) takes nothing back.
 */
public record LearnedState(long fabricFingerprint, Map<String, Part> parts) {

    static final int MAGIC = 0x46544c31; // "FTL1"
    static final int FORMAT_VERSION = 1;

    /** One part's bytes, as its codec at {@code version} wrote them. */
    public record Part(int version, byte[] bytes) {
    }

    public LearnedState {
        parts = Collections.unmodifiableMap(new LinkedHashMap<>(parts));
    }

    /** Collects the parts' learned facts (in order; names must be unique). */
    public static LearnedState of(final long fabricFingerprint, final List<? extends LearnedPart> parts) {
        final Map<String, Part> out = new LinkedHashMap<>();
        for (final LearnedPart p : parts) {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream data = new DataOutputStream(bytes)) {
                p.writeLearned(data);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the learned state of " + p.learnedName(), e);
            }
            if (out.put(p.learnedName(), new Part(p.learnedVersion(), bytes.toByteArray())) != null) {
                throw new IllegalArgumentException("two learned parts named " + p.learnedName());
            }
        }
        return new LearnedState(fabricFingerprint, out);
    }

    /**
     * Gives each part what a part of its name wrote, when the fabric is the same and the part reads that version;
     * returns the names of the parts that took theirs back.
     */
    public List<String> restoreInto(final long fabricFingerprint, final List<? extends LearnedPart> into) {
        final List<String> restored = new ArrayList<>();
        if (fabricFingerprint != this.fabricFingerprint) {
            return restored;
        }
        for (final LearnedPart p : into) {
            final Part part = parts.get(p.learnedName());
            if (part == null) {
                continue;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(part.bytes()))) {
                if (p.readLearned(in, part.version())) {
                    restored.add(p.learnedName());
                }
            } catch (IOException e) {
                throw new IllegalStateException("the learned state of " + p.learnedName() + " v" + part.version()
                    + " is unreadable: " + e.getMessage(), e);
            }
        }
        return restored;
    }

    public byte[] toBytes() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT_VERSION);
            out.writeLong(fabricFingerprint);
            out.writeInt(parts.size());
            for (final Map.Entry<String, Part> e : parts.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().version());
                out.writeInt(e.getValue().bytes().length);
                out.write(e.getValue().bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The state back from {@link #toBytes}; {@link IllegalArgumentException} when the bytes are not one. */
    public static LearnedState fromBytes(final byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException("not a learned state");
            }
            final int format = in.readInt();
            if (format != FORMAT_VERSION) {
                throw new IllegalArgumentException("learned state format " + format + ", this build reads "
                    + FORMAT_VERSION);
            }
            final long fingerprint = in.readLong();
            final int count = in.readInt();
            final Map<String, Part> parts = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                final String name = in.readUTF();
                final int version = in.readInt();
                final byte[] part = new byte[in.readInt()];
                in.readFully(part);
                parts.put(name, new Part(version, part));
            }
            return new LearnedState(fingerprint, parts);
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated learned state: " + e.getMessage(), e);
        }
    }
}
