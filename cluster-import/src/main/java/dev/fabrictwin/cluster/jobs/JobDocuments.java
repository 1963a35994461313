package dev.fabrictwin.cluster.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A running job as its {@code fabric.jobs} document: twin-engine {@code JobJson}'s fields plus {@code startMs} and
 * {@code endMs} (epoch ms, left out when unknown), which the analyzer's replica follows (docs/contracts.md).
 */
public final class JobDocuments {

    private JobDocuments() {
    }

    public static ObjectNode toJson(final ScheduledJob job, final JobShape shape, final ObjectMapper mapper) {
        final ObjectNode o = mapper.createObjectNode();
        o.put("id", job.id());
        o.put("hosts", job.hosts().size());
        final var list = o.putArray("hostList");
        job.hosts().forEach(list::add);
        o.put("pattern", shape.pattern());
        o.put("bytesPerIteration", shape.bytesPerIteration());
        o.put("iterationPeriodMs", shape.iterationPeriod().toMillis());
        o.put("commFraction", shape.commFraction());
        if (job.startMs() != null) {
            o.put("startMs", job.startMs());
        }
        if (job.endMs() != null) {
            o.put("endMs", job.endMs());
        }
        return o;
    }
}
