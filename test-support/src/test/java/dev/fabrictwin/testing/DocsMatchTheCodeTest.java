package dev.fabrictwin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The design docs say how the code is: every package of a module with a package table appears in it, every relative
 * link in the README and docs/ leads to a file, and the code cites no issue numbers of a tracker the repository does
 * not link (what an issue said belongs in the comment).
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
    /** A Markdown link or image: {@code [text](target)} or {@code [text](target "title")}; group 1 is the target. */
    private static final Pattern LINK = Pattern.compile("\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)");
    /** Fenced code blocks and inline code spans: what they show is code, not a link. */
    private static final Pattern CODE = Pattern.compile("(?s)```.*?```|`[^`\\n]*`");
    /** A target with a scheme (https:, mailto:) or only an anchor in the same page: not a file of the repository. */
    private static final Pattern NOT_A_FILE = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*:|#)");

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
    void shouldLeadEveryRelativeLinkInTheDocsToAFile() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        final List<String> broken = new ArrayList<>();
        for (final Path page : pages) {
            broken.addAll(brokenLinks(root, page, Files.readString(page)));
        }
        assertThat(pages).hasSizeGreaterThan(10);
        assertThat(broken).isEmpty();
    }

    @Test
    void shouldTellABrokenLinkFromAFileAnAnchorAndCode() throws IOException {
        final Path root = RepositoryFiles.root();
        final String text = """
            [ok](analyzer.md#time-ticks-and-grace), [up](../README.md), [web](https://kafka.apache.org), [here](#top)
            [gone](history/nothing.md), `[code](not-a-link.md)`
            ```
            [fenced](also-not-a-link.md)
            ```
            [gone too](nowhere/ "a title")
            """;

        assertThat(brokenLinks(root, root.resolve("docs/page.md"), text))
            .containsExactly("docs/page.md links to history/nothing.md: no such file",
                "docs/page.md links to nowhere/: no such file");
    }

    /** The relative links of {@code page}'s text whose file (or folder) does not exist, one line each. */
    private static List<String> brokenLinks(final Path root, final Path page, final String text) {
        final List<String> broken = new ArrayList<>();
        final Matcher link = LINK.matcher(CODE.matcher(text).replaceAll(""));
        while (link.find()) {
            final String target = link.group(1);
            final String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
            if (!NOT_A_FILE.matcher(target).find() && !Files.exists(page.getParent().resolve(file).normalize())) {
                broken.add(root.relativize(page) + " links to " + target + ": no such file");
            }
        }
        return broken;
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
