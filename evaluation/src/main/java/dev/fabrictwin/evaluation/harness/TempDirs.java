package dev.fabrictwin.evaluation.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The commands' scratch directories (Kafka Streams state, simulated captures): removed when a run ends. */
public final class TempDirs {

    private TempDirs() {
    }

    /** Deletes {@code root} and everything below it; a leftover temp file is harmless, so failures are ignored. */
    public static void delete(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: the OS temp dir is cleaned eventually
        }
    }
}
