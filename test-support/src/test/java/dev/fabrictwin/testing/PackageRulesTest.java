package dev.fabrictwin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The package rules docs/architecture.md states, read from the main sources: a package named by a rule (and its
 * subpackages, less those the rule excepts) names nothing of the forbidden package, by import (single, wildcard or
 * static) or by a fully qualified name in code; comments do not count. The rules between modules need no scan:
 * a module compiles against its declared dependencies only, and Maven refuses a cycle, so nothing can import a
 * module above it.
 */
class PackageRulesTest {

    /** {@code module}'s package {@code owner} (with subpackages, less {@code except}) names nothing of {@code forbidden}. */
    record Rule(String module, String owner, Set<String> except, String forbidden, String why) {

        boolean governs(final String pkg) {
            return within(pkg, owner) && except.stream().noneMatch(e -> within(pkg, e));
        }

        private static boolean within(final String pkg, final String prefix) {
            return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
        }
    }

    static final List<Rule> RULES = List.of(
        new Rule("streams-app", "dev.fabrictwin.analyzer",
            Set.of("dev.fabrictwin.analyzer.topology", "dev.fabrictwin.analyzer.runtime", "dev.fabrictwin.analyzer.replay"),
            "org.apache.kafka", "the analyzer's core (judgement, state, metrics) is tested without Kafka; the topology wires it"),
        new Rule("streams-app", "dev.fabrictwin.analyzer.detect", Set.of(), "dev.fabrictwin.analyzer.shard",
            "detectors see a shard through ShardView and cross shards through Detector.acrossShards"),
        new Rule("twin-engine", "dev.fabrictwin.twin.fabric", Set.of(), "dev.fabrictwin.twin.scenario",
            "the fabric model is read by every module; scenarios build on it, not the other way"));

    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    /** A comment, or a string literal (kept: a {@code "/*"} in one opens no comment). */
    private static final Pattern COMMENT = Pattern.compile("\"(?:\\\\.|[^\"\\\\\\n])*\"|/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void shouldKeepEveryPackageRuleInTheMainSources() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<String> violations = new ArrayList<>();
        for (final Rule rule : RULES) {
            final List<Path> governed = new ArrayList<>();
            for (final Path file : mainSources(root.resolve(rule.module()))) {
                final String text = Files.readString(file, StandardCharsets.UTF_8);
                final Matcher pkg = PACKAGE.matcher(text);
                if (pkg.find() && rule.governs(pkg.group(1))) {
                    governed.add(file);
                    violations.addAll(violations(rule, root.relativize(file).toString().replace('\\', '/'), text));
                }
            }
            assertThat(governed).as("main sources of %s in %s (a rule that reads nothing checks nothing)", rule.owner(),
                rule.module()).isNotEmpty();
        }

        assertThat(violations).as("package rules (docs/architecture.md)").isEmpty();
    }

    @Test
    void shouldFlagImportsAndQualifiedNamesButNotComments() {
        final Rule rule = RULES.get(1);

        assertThat(violations(rule, "A.java", """
            import dev.fabrictwin.analyzer.shard.ShardMap;
            import dev.fabrictwin.analyzer.shard.*;
            import static dev.fabrictwin.analyzer.shard.ShardMap.of;
            final String glob = "/*"; // a string opens no comment
            final var tick = new dev.fabrictwin.analyzer.shard.ShardTick(0, 0, 0, 0, null, null, null);
            """)).hasSize(4)
            .allSatisfy(v -> assertThat(v).startsWith("A.java:").contains("names dev.fabrictwin.analyzer.shard"));
        assertThat(violations(rule, "A.java", """
            import dev.fabrictwin.analyzer.sharding.Plan; // another package, whose name only starts alike
            /** Sharded, the correlation stage ({@code dev.fabrictwin.analyzer.shard.ShardedCorrelation}) calls it. */
            // dev.fabrictwin.analyzer.shard.ShardMap implements ShardView
            """)).isEmpty();
    }

    @Test
    void shouldExceptTheAdapterPackagesFromTheKafkaFreeCore() {
        final Rule core = RULES.get(0);

        assertThat(core.governs("dev.fabrictwin.analyzer")).isTrue();
        assertThat(core.governs("dev.fabrictwin.analyzer.metrics")).isTrue();
        assertThat(core.governs("dev.fabrictwin.analyzer.topology")).isFalse();
        assertThat(core.governs("dev.fabrictwin.analyzer.runtime")).isFalse();
        assertThat(core.governs("dev.fabrictwin.analyzer.replay")).isFalse();
        assertThat(core.governs("dev.fabrictwin.analyzers")).isFalse();
    }

    /** Each line of {@code text} (the content of {@code file}, comments blanked) naming the rule's forbidden package. */
    static List<String> violations(final Rule rule, final String file, final String text) {
        final Matcher comments = COMMENT.matcher(text);
        final StringBuilder code = new StringBuilder();
        while (comments.find()) { // blanked, not removed: line numbers stay
            final String match = comments.group();
            final String kept = match.startsWith("\"") ? match : match.replaceAll("[^\\n]", " ");
            comments.appendReplacement(code, Matcher.quoteReplacement(kept));
        }
        comments.appendTail(code);
        final Pattern forbidden = Pattern.compile("(?<![\\w.])" + Pattern.quote(rule.forbidden()) + "\\.");
        final List<String> found = new ArrayList<>();
        final String[] lines = code.toString().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            if (forbidden.matcher(lines[i]).find()) {
                found.add(file + ":" + (i + 1) + ": " + rule.owner() + " names " + rule.forbidden() + " (" + rule.why() + ")");
            }
        }
        return found;
    }

    private static List<Path> mainSources(final Path module) throws IOException {
        final Path main = module.resolve("src/main/java");
        assertThat(main).as("main sources of module %s", module.getFileName()).isDirectory();
        try (Stream<Path> s = Files.walk(main)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
