package dev.fabrictwin.cli.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian tools the checks use (Prometheus and promtool, kcat), provided by {@code scripts/install-debian-tools.sh}
 * (installed when missing). Tests skip only when that fails, and say why.
 */
public final class DebianTools {

    private DebianTools() {
    }

    /** Empty when every package's command is on PATH (installing what is missing); else the installer's reason. */
    public static Optional<String> ensure(final String... packages) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of("bash",
            StackFiles.repoRoot().resolve(Path.of("scripts", "install-debian-tools.sh")).toString()));
        command.addAll(List.of(packages));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return Optional.of("scripts/install-debian-tools.sh did not finish in 10 minutes");
        }
        return p.exitValue() == 0 ? Optional.empty()
            : Optional.of("scripts/install-debian-tools.sh could not provide " + String.join(", ", packages) + ": " + output);
    }
}
