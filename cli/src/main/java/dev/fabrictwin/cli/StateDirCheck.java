package dev.fabrictwin.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;

import dev.fabrictwin.kafka.common.FailureCauses;

/**
 * The state directory of a Kafka Streams command, written to before Kafka Streams starts: a directory that cannot be
 * created or written, or a full disk, is one line naming it, not a {@code ProcessorStateException}
 * about opening a store from every stream thread.
 */
final class StateDirCheck {

    /** A page: a full disk refuses it where an empty file would still fit. */
    private static final int PROBE_BYTES = 4096;

    private StateDirCheck() {
    }

    /** Checks the directory Kafka Streams will use with {@code streamsConfig} (its state.dir, or the default). */
    static void require(final Properties streamsConfig) {
        final StreamsConfig config = new StreamsConfig(streamsConfig);
        final Path base = Path.of(config.getString(StreamsConfig.STATE_DIR_CONFIG));
        require(base, base.resolve(config.getString(StreamsConfig.APPLICATION_ID_CONFIG)));
    }

    /** Creates {@code dir} (the application's directory under {@code base}) and writes a page in it. */
    static void require(final Path base, final Path dir) {
        try {
            Files.createDirectories(dir);
            final Path probe = Files.createTempFile(dir, ".fabric-twin-probe", "");
            try {
                Files.write(probe, new byte[PROBE_BYTES]);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            throw new CommandFailure(FailureCauses.diskFull(e, "the state directory " + base).orElseGet(() ->
                "the state directory " + base + " cannot be written (" + reason(e) + "): give --state-dir (or state.dir "
                    + "in --config) a directory this user can write"), e);
        }
    }

    private static String reason(final IOException e) {
        if (e instanceof AccessDeniedException a) {
            return a.getFile() + ": permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getFile() + ": " + f.getReason();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
