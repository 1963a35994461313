package dev.fabrictwin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/** The repository's own files, as the source scans ({@link RepositoryBoundaryTest}, {@link PackageRulesTest}) read them. */
final class RepositoryFiles {

    /** Folders whose text never reaches a build or a test run. */
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", ".mvn");

    private RepositoryFiles() {
    }

    /** The repository root: the nearest directory from the working directory up that holds {@code mvnw} and {@code .ci}. */
    static Path root() {
        final Path start = Path.of("").toAbsolutePath();
        return Stream.iterate(start, Objects::nonNull, Path::getParent)
            .filter(dir -> Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve(".ci")))
            .findFirst()
            .orElseThrow(() -> new UncheckedIOException(new IOException("no repository root (mvnw and .ci) at or above " + start)));
    }

    /** Whether {@code p} lies in a folder no build or test reads (build output, git, tooling). */
    static boolean skipped(final Path root, final Path p) {
        return root.relativize(p).getNameCount() > 0
            && Stream.iterate(root.relativize(p), Objects::nonNull, Path::getParent)
                .anyMatch(part -> SKIPPED_DIRS.contains(part.getFileName().toString()));
    }
}
