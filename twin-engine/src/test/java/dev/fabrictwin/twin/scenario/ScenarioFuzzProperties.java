package dev.fabrictwin.twin.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.JsonShapes;
import dev.fabrictwin.twin.fuzz.Mutants;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The scenario loader on hostile YAML: every input is a scenario or a {@link ScenarioException} with one line
 * naming the problem (what the CLI prints before exiting 2); never an NPE, a ClassCast or a StackOverflow.
 * Seeds are the repository's own scenarios.
 */
@Tag("fuzz")
@AddLifecycleHook(FuzzTries.class)
class ScenarioFuzzProperties {

    /** Where a relative {@code fabric.file} would resolve: nowhere, so a mutated path reads nothing. */
    private static final Path NO_DIR = Path.of("target", "fuzz-no-such-dir");
    private static final List<String> SEEDS = scenarios();

    @Property(tries = 400)
    void everyMutatedScenarioLoadsOrFailsWithOneLine(@ForAll("mutants") final String yaml) {
        assertLoadsOrFailsWithOneLine(() -> ScenarioParser.parse(ScenarioParser.tree(yaml), NO_DIR));
    }

    @Property(tries = 400)
    void everyStructuredScenarioLoadsOrFailsWithOneLine(@ForAll("trees") final JsonNode tree) {
        assertLoadsOrFailsWithOneLine(() -> ScenarioParser.parse(tree, NO_DIR));
    }

    @Example
    void deepNestingIsAOneLineError() {
        for (final String yaml : List.of(Mutants.nested("[", 100_000), "name: " + Mutants.nested("- ", 100_000),
                "name: x\nfabric: " + Mutants.nested("{a: ", 100_000))) {
            assertThatThrownBy(() -> ScenarioParser.parse(ScenarioParser.tree(yaml), NO_DIR))
                .isInstanceOf(ScenarioException.class).message().doesNotContain("\n");
        }
    }

    /** Found by deepNestingIsAOneLineError's first version: the YAML parser took 50 s to reject a 12 MB line. */
    @Example
    void aTwelveMegabyteLineIsRejectedBeforeTheYamlParserSeesIt() {
        final String yaml = "name: " + new String(Mutants.longLine("x", 12 << 20), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ScenarioParser.tree(yaml)).isInstanceOf(ScenarioException.class)
            .hasMessage("a scenario of 12,582,918 characters is too large (at most 1,048,576 characters): is this the right file?");
    }

    @Example
    void aliasBombIsAnErrorNotAnOutOfMemory() {
        final StringBuilder yaml = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            final String prev = String.valueOf((char) (c - 1));
            yaml.append(c).append(": &").append(c).append(" [*").append(prev).append(", *").append(prev).append(", *")
                .append(prev).append(", *").append(prev).append(", *").append(prev).append("]\n");
        }
        assertThatThrownBy(() -> ScenarioParser.parse(ScenarioParser.tree(yaml.toString()), NO_DIR))
            .isInstanceOf(ScenarioException.class);
    }

    private static void assertLoadsOrFailsWithOneLine(final ThrowingLoad load) {
        try {
            final Scenario s = load.run();
            assertThat(s.name()).isNotNull();
        } catch (ScenarioException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }

    private interface ThrowingLoad {
        Scenario run();
    }

    @Provide
    Arbitrary<String> mutants() {
        return Mutants.text(SEEDS);
    }

    @Provide
    Arbitrary<JsonNode> trees() {
        return JsonShapes.trees(SEEDS);
    }

    private static List<String> scenarios() {
        try (Stream<Path> files = Files.walk(Path.of("..", "scenarios"))) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().map(p -> {
                try {
                    return Files.readString(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
