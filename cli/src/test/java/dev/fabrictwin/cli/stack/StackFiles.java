package dev.fabrictwin.cli.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Where the docker-compose stack's files live, for the tests of this package. */
final class StackFiles {

    private StackFiles() {
    }

    /**
     * The repository root: the nearest directory, from the working directory up, holding {@code docker-compose.yml}
     * and the {@code cli} module ({@code ..} when Maven runs the cli module's tests).
     */
    static Path repoRoot() {
        final Path start = Path.of("").toAbsolutePath();
        return Stream.iterate(start, Objects::nonNull, Path::getParent)
            .filter(dir -> Files.isRegularFile(dir.resolve("docker-compose.yml")) && Files.isDirectory(dir.resolve("cli")))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no docker-compose.yml in " + start + " or above"));
    }

    static Path composeFile() {
        return repoRoot().resolve("docker-compose.yml");
    }

    static Path dashboardsDir() {
        return repoRoot().resolve("grafana").resolve("dashboards");
    }

    /**
     * Whether {@code docker compose} (Compose v2) answers: Testcontainers' {@code ComposeContainer} runs it, and a
     * Docker engine without the plugin must skip the stack test, not fail it. Used by {@code @EnabledIf}.
     */
    static boolean dockerComposeInstalled() {
        try {
            final Process process = new ProcessBuilder("docker", "compose", "version")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
