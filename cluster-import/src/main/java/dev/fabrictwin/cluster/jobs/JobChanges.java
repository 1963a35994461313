package dev.fabrictwin.cluster.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What to publish to {@code fabric.jobs} when the scheduler's view changes: documents of jobs that are new or
 * changed, and the ids of jobs gone (their tombstones). Unchanged jobs publish nothing.
 */
public record JobChanges(Map<String, JsonNode> put, List<String> ended) {

    public static JobChanges diff(final Map<String, JsonNode> previous, final Map<String, JsonNode> current) {
        final Map<String, JsonNode> put = new LinkedHashMap<>();
        current.forEach((id, doc) -> {
            if (!doc.equals(previous.get(id))) {
                put.put(id, doc);
            }
        });
        final List<String> ended = new ArrayList<>();
        previous.keySet().forEach(id -> {
            if (!current.containsKey(id)) {
                ended.add(id);
            }
        });
        return new JobChanges(put, ended);
    }

    public boolean isEmpty() {
        return put.isEmpty() && ended.isEmpty();
    }
}
