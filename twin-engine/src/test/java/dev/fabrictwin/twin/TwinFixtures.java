package dev.fabrictwin.twin;

import java.nio.file.Path;

import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/** Scenarios written inline for tests. */
public final class TwinFixtures {

    private TwinFixtures() {
    }

    public static Scenario scenario(final String yaml) {
        return ScenarioParser.parse(ScenarioParser.tree(yaml), Path.of("."));
    }

    /** Repo-relative path of a shipped scenario (tests run with the module as working directory). */
    public static Path shipped(final String name) {
        return Path.of("..", "scenarios", name);
    }
}
