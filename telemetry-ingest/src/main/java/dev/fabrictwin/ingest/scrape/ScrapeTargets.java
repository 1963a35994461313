package dev.fabrictwin.ingest.scrape;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The {@code ingest --scrape} targets file:
 * <pre>
 * targets:
 *   - url: http://10.0.0.5:9100/metrics     # node_exporter on a host
 *     device: gpu-host-5                      # optional; default: the URL's host (10.0.0.5)
 *   - http://leaf-1:9101/metrics             # a bare URL: device leaf-1
 * </pre>
 * Every mistake is an {@link IllegalArgumentException} naming the entry and the fix.
 */
public final class ScrapeTargets {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> KEYS = Set.of("url", "device");

    private ScrapeTargets() {
    }

    public static List<ScrapeTarget> parse(final String yaml) {
        final JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("targets file is not YAML: " + e.getOriginalMessage());
        }
        final JsonNode list = root == null ? null : root.get("targets");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new IllegalArgumentException("targets file needs a non-empty list 'targets:' of URLs or {url, device} entries");
        }
        final List<ScrapeTarget> targets = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            targets.add(target(list.get(i), "targets[" + i + "]"));
        }
        return List.copyOf(targets);
    }

    private static ScrapeTarget target(final JsonNode entry, final String where) {
        if (entry.isTextual()) {
            return ScrapeTarget.of(url(entry.textValue(), where));
        }
        if (!entry.isObject() || !entry.hasNonNull("url")) {
            throw new IllegalArgumentException(where + ": expected a URL or an object with 'url' (and optional 'device')");
        }
        entry.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(where + ": unknown key '" + k + "' (expected url, device)");
            }
        });
        final URI url = url(entry.get("url").asText(), where);
        final JsonNode device = entry.get("device");
        if (device == null || device.isNull()) {
            return ScrapeTarget.of(url);
        }
        if (!device.isTextual() || device.textValue().isBlank()) {
            throw new IllegalArgumentException(where + ": 'device' must be a non-empty name");
        }
        return new ScrapeTarget(url, device.textValue().strip());
    }

    private static URI url(final String text, final String where) {
        final URI u;
        try {
            u = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + ": not a URL: '" + text + "'");
        }
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException(where + ": expected an http(s)://host[:port]/path URL, was '" + text + "'");
        }
        return u;
    }
}
