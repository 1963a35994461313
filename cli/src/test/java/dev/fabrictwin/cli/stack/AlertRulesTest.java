package dev.fabrictwin.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus alerting rules shipped for users ({@code prometheus/alert-rules.yml}) pass {@code promtool check
 * rules} and their unit tests ({@code promtool test rules}): a root cause pages, its victims do not, a stalled
 * analyzer is noticed, the static-threshold rules fire on their thresholds.
 */
class AlertRulesTest {

    private static final Path DIR = StackFiles.repoRoot().resolve("prometheus");

    @BeforeAll
    static void promtool() {
        DebianTools.require("promtool");
    }

    @Test
    void shouldPassPromtoolCheckRules() throws Exception {
        final Result r = promtool("check", "rules", "alert-rules.yml");

        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS: 7 rules found");
    }

    @Test
    void shouldPassTheRulesUnitTests() throws Exception {
        final Result r = promtool("test", "rules", "alert-rules.test.yml");

        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
    }

    private record Result(int exit, String output) {
    }

    private static Result promtool(final String... args) throws IOException, InterruptedException {
        final String[] command = new String[args.length + 1];
        command[0] = "promtool";
        System.arraycopy(args, 0, command, 1, args.length);
        final Process p = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        return new Result(p.exitValue(), out);
    }
}
