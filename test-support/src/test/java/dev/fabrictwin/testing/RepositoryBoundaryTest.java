package dev.fabrictwin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A clone must pass its tests with nothing beside it: no test source (nor a POM, which configures the tests) may
 * reference a path outside the repository, and every real fixture kept in the repository names its provenance.
 * Relative paths are resolved as Maven runs the tests, from the module's directory.
 */
class RepositoryBoundaryTest {

    /** Text that tests and their configuration are written in. */
    private static final Set<String> SCANNED_SUFFIXES = Set.of(".java", ".xml", ".properties", ".yaml", ".yml", ".sh", ".json");
    /** A run of parent steps with what follows it, e.g. {@code ../../fixtures/x}. */
    private static final Pattern PARENT_PATH = Pattern.compile("(?:\\.\\.[/\\\\])+[\\w.\\-/\\\\]*|(?<![\\w.])\\.\\.(?![\\w./\\\\])");
    /** {@code Path.of("..", "x")} and {@code Paths.get(...)}: literal arguments joined as one path. */
    private static final Pattern PATH_CALL = Pattern.compile("(?:Path\\.of|Paths\\.get)\\(((?:\\s*\"[^\"]*\"\\s*,?)+)\\)");
    private static final Pattern LITERAL = Pattern.compile("\"([^\"]*)\"");
    /** Absolute places that only exist on a developer's or CI's machine. */
    private static final Pattern MACHINE_PATH = Pattern.compile("(?<![\\w.:/])/(?:work|home|root|Users)/[\\w.\\-]+");

    @Test
    void shouldFindNoTestSourceReferencingAPathOutsideTheRepository() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<String> violations = new ArrayList<>();
        for (final Path file : scannedFiles(root)) {
            violations.addAll(violations(root, moduleDir(root, file), file, Files.readString(file, StandardCharsets.UTF_8)));
        }

        assertThat(violations).as("references to paths outside %s", root).isEmpty();
    }

    @Test
    void shouldFlagEscapesAndAllowPathsInsideTheRepository() {
        final Path root = Path.of("/repo");
        final Path module = root.resolve("ingest");
        final Path test = module.resolve("src/test/java/A.java");

        assertThat(violations(root, module, test, """
            Path.of(System.getProperty("x", "../../outside/fixtures"));
            Path.of("..", "..", "outside");
            Paths.get("/home/someone/fixtures/x");
            """)).hasSize(3).allSatisfy(v -> assertThat(v).startsWith("ingest/src/test/java/A.java:"));
        assertThat(violations(root, module, test, """
            Path.of("..", "scenarios", "pfc-storm-small.yaml");
            Path.of("../grafana/dashboards");
            getResource("/refdata/node_exporter/x.prom");
            "http://127.0.0.1:9090/api/v1/query";
            """)).isEmpty();
    }

    @Test
    void shouldKeepEveryRealFixtureWithItsProvenance() throws IOException {
        final Path root = RepositoryFiles.root();
        final List<Path> manifests;
        try (Stream<Path> s = Files.walk(root)) {
            manifests = s.filter(p -> p.getFileName().toString().equals("MANIFEST.tsv") && !RepositoryFiles.skipped(root, p)).toList();
        }
        assertThat(manifests).as("fixture manifests under %s", root).isNotEmpty();
        for (final Path manifest : manifests) {
            final Path dir = manifest.getParent();
            final List<String[]> rows = Files.readAllLines(manifest).stream().skip(1).filter(l -> !l.isBlank())
                .map(l -> l.split("\t", -1)).toList();
            assertThat(rows).as("rows of %s", manifest).allSatisfy(row -> {
                assertThat(row).as("file, repo, source path, commit, licence").hasSize(5);
                assertThat(Arrays.stream(row).allMatch(c -> !c.isBlank())).as("no empty column: %s", String.join(" | ", row)).isTrue();
                assertThat(row[3]).as("commit of %s", row[0]).matches("[0-9a-f]{40}");
                assertThat(dir.resolve(row[0])).as("listed file").isRegularFile();
            });
            final Set<String> listed = rows.stream().map(r -> r[0]).collect(Collectors.toSet());
            try (Stream<Path> files = Files.walk(dir)) {
                assertThat(files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> !f.equals("MANIFEST.tsv") && !f.equals("README.md")))
                    .as("fixtures in %s without a MANIFEST row", dir)
                    .allMatch(listed::contains);
            }
        }
    }

    /** Every reference in {@code text} (the content of {@code file}, run from {@code moduleDir}) that resolves outside {@code root}. */
    static List<String> violations(final Path root, final Path moduleDir, final Path file, final String text) {
        final List<String> found = new ArrayList<>();
        final String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            final String where = root.relativize(file).toString().replace('\\', '/') + ":" + (i + 1) + ": ";
            for (final String path : candidates(lines[i])) {
                if (!moduleDir.resolve(path).normalize().startsWith(root)) {
                    found.add(where + path);
                }
            }
            final Matcher machine = MACHINE_PATH.matcher(lines[i]);
            while (machine.find()) {
                found.add(where + machine.group());
            }
        }
        return found;
    }

    /** Relative paths with parent steps on one line: from {@code Path.of}/{@code Paths.get} calls, then any others. */
    private static List<String> candidates(final String line) {
        final List<String> paths = new ArrayList<>();
        String rest = line;
        final Matcher call = PATH_CALL.matcher(line);
        while (call.find()) {
            final List<String> parts = new ArrayList<>();
            final Matcher literal = LITERAL.matcher(call.group(1));
            while (literal.find()) {
                parts.add(literal.group(1));
            }
            final String joined = String.join("/", parts);
            if (!joined.startsWith("/") && joined.contains("..")) {
                paths.add(joined);
            }
            rest = rest.replace(call.group(), " ");
        }
        final Matcher parent = PARENT_PATH.matcher(rest);
        while (parent.find()) {
            paths.add(parent.group().replace('\\', '/'));
        }
        return paths;
    }

    /** Maven runs a module's tests in the directory of its {@code pom.xml}: the nearest one above the file. */
    private static Path moduleDir(final Path root, final Path file) {
        for (Path dir = file.getParent(); dir != null && dir.startsWith(root); dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        return root;
    }

    private static List<Path> scannedFiles(final Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                .filter(p -> !RepositoryFiles.skipped(root, p))
                .filter(p -> !p.getFileName().toString().equals(RepositoryBoundaryTest.class.getSimpleName() + ".java"))
                .filter(p -> p.getFileName().toString().equals("pom.xml")
                    || root.relativize(p).toString().replace('\\', '/').contains("src/test/")
                        && SCANNED_SUFFIXES.stream().anyMatch(p.getFileName().toString()::endsWith)
                        && !root.relativize(p).toString().replace('\\', '/').contains("/refdata/"))
                .sorted()
                .toList();
        }
    }
}
