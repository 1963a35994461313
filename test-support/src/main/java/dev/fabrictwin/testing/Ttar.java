package dev.fabrictwin.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Unpacks a ttar archive (prometheus/procfs's plain-text fixture format: {@code Directory: <path>}, or
 * {@code Path: <path>} + {@code Lines: <n>} + n lines, the last suffixed {@code EOF} when the file had no trailing
 * newline, or {@code SymlinkTo: <target>}; {@code Mode:} and {@code # ttar} lines between entries) into a directory,
 * so a test reads a real fixture as the files it was made from.
 */
public final class Ttar {

    private Ttar() {
    }

    /** Extracts {@code archive} under {@code into} (the archive's paths are relative, e.g. {@code fixtures/sys/...}). */
    public static void extract(final Path archive, final Path into) throws IOException {
        final List<String> lines = Files.readAllLines(archive, StandardCharsets.UTF_8);
        int i = 0;
        while (i < lines.size()) {
            final String line = lines.get(i++);
            if (line.startsWith("Directory:")) {
                Files.createDirectories(target(into, line.substring("Directory:".length())));
            } else if (line.startsWith("Path:")) {
                final Path file = target(into, line.substring("Path:".length()));
                Files.createDirectories(file.getParent());
                final String header = lines.get(i++);
                if (header.startsWith("SymlinkTo:")) {
                    Files.createSymbolicLink(file, Path.of(header.substring("SymlinkTo:".length()).strip()));
                    continue;
                }
                if (!header.startsWith("Lines:")) {
                    throw new IOException("ttar: expected 'Lines: <n>' after " + line + " in " + archive);
                }
                final int n = Integer.parseInt(header.substring("Lines:".length()).strip());
                final StringBuilder content = new StringBuilder();
                for (int k = 0; k < n; k++) {
                    final String c = lines.get(i++);
                    if (k == n - 1 && c.endsWith("EOF")) {
                        content.append(c, 0, c.length() - 3);
                    } else {
                        content.append(c).append('\n');
                    }
                }
                Files.writeString(file, content, StandardCharsets.UTF_8);
            }
        }
    }

    private static Path target(final Path into, final String path) throws IOException {
        final Path p = into.resolve(path.strip()).normalize();
        if (!p.startsWith(into.normalize())) {
            throw new IOException("ttar path outside the target directory: " + path);
        }
        return p;
    }
}
