package dev.fabrictwin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The design docs say how the code is: every package of a module with a package table appears in it, and the code
 * cites no issue numbers of a tracker the repository does not link (what an issue said belongs in the comment).
 */
class DocsMatchTheCodeTest {

    /** A module's base package folder, the doc holding its package table, and how a row names a package. */
    private record PackageTable(String module, String basePackage, String doc, String rowPrefix) {
    }

    private static final List<PackageTable> TABLES = List.of(
        new PackageTable("twin-engine", "dev/fabrictwin/twin", "docs/twin.md", ""),
        new PackageTable("streams-app", "dev/fabrictwin/analyzer", "docs/analyzer.md", "analyzer."));
    /** "issue" and a number, but not another project's tracker (a "Telegraf's issue" and its number is a source). */
    private static final Pattern ISSUE_NUMBER = Pattern.compile("(?<!'s )\\b[Ii]ssues? #?\\d+");

    @Test
    void shouldListEveryPackageInItsModulesTable() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<String> missing = new ArrayList<>();
        for (final PackageTable table : TABLES) {
            final List<String> rows = Files.readAllLines(root.resolve(table.doc())).stream()
                .filter(line -> line.startsWith("| ")).toList();
            try (Stream<Path> packages = Files.list(root.resolve(table.module()).resolve("src/main/java")
                .resolve(table.basePackage()))) {
                for (final Path p : packages.filter(Files::isDirectory).sorted().toList()) {
                    final String name = "`" + table.rowPrefix() + p.getFileName() + "`";
                    if (rows.stream().noneMatch(row -> row.substring(0, row.indexOf(" |", 2) + 1).contains(name))) {
                        missing.add(table.doc() + " has no row for " + name + " (" + table.module() + ")");
                    }
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void shouldCiteNoIssueNumbersInTheCode() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<String> cited = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path f : files.filter(p -> p.toString().endsWith(".java") && !RepositoryFiles.skipped(root, p))
                .toList()) {
                final List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (ISSUE_NUMBER.matcher(lines.get(i)).find()) {
                        cited.add(root.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(cited).isEmpty();
    }
}
