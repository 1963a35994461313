package dev.fabrictwin.cli.stack;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian tools the checks use (Prometheus and promtool, kcat, prometheus-node-exporter). Tests never install anything: {@code .ci/run}
 * runs {@code scripts/install-debian-tools.sh} before the test command (and so can anyone before {@code ./mvnw
 * verify}). Where a tool is missing, its tests are skipped with the reason; on CI ({@code CI=true}) they fail
 * instead, so a check that did not run never passes unnoticed there.
 */
public final class DebianTools {

    static final String INSTALL_HINT = "install them with scripts/install-debian-tools.sh (.ci/run does)";

    private DebianTools() {
    }

    /** Empty when every command is on PATH; else why not (which commands are missing). */
    public static Optional<String> missing(final String... commands) {
        final List<String> absent = Arrays.stream(commands).filter(c -> !onPath(c)).toList();
        return absent.isEmpty() ? Optional.empty()
            : Optional.of(String.join(", ", absent) + " not found on PATH: " + INSTALL_HINT);
    }

    /** Skips the calling test when a command is missing, or fails it on CI, where nothing may be skipped. */
    public static void require(final String... commands) {
        missing(commands).ifPresent(DebianTools::skipOrFail);
    }

    /** Skips the calling test with the reason, or fails it on CI ({@code CI=true}). */
    public static void skipOrFail(final String reason) {
        if (onCi()) {
            Assertions.fail("CI=true and a required tool is missing (tests must not be skipped on CI): " + reason);
        }
        Assumptions.abort(reason);
    }

    static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    private static boolean onPath(final String command) {
        final String path = System.getenv("PATH");
        return path != null && Arrays.stream(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
            .map(d -> Path.of(d, command)).anyMatch(p -> Files.isRegularFile(p) && Files.isExecutable(p));
    }
}
