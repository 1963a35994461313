package dev.fabrictwin.twin.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** {@code fabric: {file: path}}: nodes and links read from a JSON or YAML file (see {@link FabricJson}). */
public record FabricFileSpec(Path path, Technology technology) implements FabricSpec {

    @Override
    public Fabric build(final String id) {
        return load();
    }

    @Override
    public int hostCount() {
        return load().hosts().size();
    }

    @Override
    public long linkCount() {
        return load().links().size();
    }

    private Fabric load() {
        final ObjectMapper mapper = new ObjectMapper(new YAMLFactory()); // YAML is a superset of JSON
        final JsonNode root;
        try {
            root = mapper.readTree(Files.readString(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fabric file " + path + ": " + e.getMessage(), e);
        }
        try {
            return FabricJson.fromJson(root, path.getFileName().toString().replaceFirst("\\.[^.]*$", ""), technology);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }
}
