package dev.fabrictwin.twin.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A declared job as JSON, the value of {@code fabric.jobs} and each entry of {@code jobs.json}:
 * {@code {"id":"llm-a","hosts":16,"hostList":["host-0",...],"pattern":"ring-allreduce",
 * "bytesPerIteration":8000000000,"iterationPeriodMs":2000,"commFraction":0.35}} ({@code "offset"} too for pattern
 * {@code shift}). Written with the hosts the
 * job actually runs on, so a reader places it exactly where the writer did.
 */
public final class JobJson {

    private JobJson() {
    }

    public static ObjectNode toJson(final PlacedJob job, final ObjectMapper mapper) {
        final JobSpec s = job.spec();
        final ObjectNode o = mapper.createObjectNode();
        o.put("id", s.id());
        o.put("hosts", job.hosts().size());
        final var list = o.putArray("hostList");
        job.hosts().forEach(h -> list.add(h.name()));
        o.put("pattern", s.pattern().label());
        o.put("bytesPerIteration", s.bytesPerIteration());
        o.put("iterationPeriodMs", s.iterationPeriod().toMillis());
        o.put("commFraction", s.commFraction());
        if (s.pattern() == Pattern.SHIFT) {
            o.put("offset", s.offset());
        }
        return o;
    }

    /** Parses one job; problems are {@link IllegalArgumentException}s naming the field. */
    public static JobSpec fromJson(final JsonNode o) {
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("a job must be a JSON object");
        }
        final List<String> hosts = new ArrayList<>();
        o.path("hostList").forEach(h -> hosts.add(h.asText()));
        if (!o.hasNonNull("id")) {
            throw new IllegalArgumentException("job needs an 'id'");
        }
        return new JobSpec(o.get("id").asText(), o.path("hosts").asInt(hosts.size()), hosts,
            Pattern.parse(o.path("pattern").asText("ring-allreduce")), o.path("bytesPerIteration").asLong(0),
            Duration.ofMillis(o.path("iterationPeriodMs").asLong(0)), o.path("commFraction").asDouble(-1),
            o.path("offset").asInt(1));
    }
}
