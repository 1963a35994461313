package dev.fabrictwin.cluster.jobs;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.cluster.FoundKeys;

/**
 * SLURM's views of its jobs: {@code squeue --json} / {@code scontrol show job --json} (data_parser 0.0.38–0.0.41:
 * states as a string or a list of flags, numbers plain or as {@code {"set": true, "number": N}}, times in epoch
 * seconds) and {@code scontrol show job -d} text ({@code Key=Value} tokens, a blank line between jobs, times in the
 * cluster's local time). A job's {@code comment} becomes its {@code comment} metadata.
 */
public final class SlurmJobs {

    private SlurmJobs() {
    }

    /**
     * The {@code jobs} array of {@code squeue --json} / {@code scontrol show job --json} ({@code job_state},
     * {@code start_time}, {@code end_time}) or of {@code sacct --json} / slurmrestd's slurmdb endpoints
     * ({@code state.current}, {@code time.start}, {@code time.end}, {@code nodes} "None assigned" while pending, the
     * comment as {@code {"job": ...}}).
     */
    public static List<ScheduledJob> fromJson(final JsonNode root) {
        final JsonNode jobs = root == null ? null : root.get("jobs");
        if (jobs == null || !jobs.isArray()) {
            throw new IllegalArgumentException("not squeue/scontrol/sacct --json output: expected an object with a 'jobs' array, "
                + "found " + (root == null ? "nothing" : root.isObject() ? "keys " + fieldNames(root) : "a JSON " + root.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        final List<ScheduledJob> out = new ArrayList<>();
        int i = 0;
        for (final JsonNode j : jobs) {
            final String where = "jobs[" + i++ + "]";
            final JsonNode id = number(j.get("job_id"));
            if (id == null) {
                throw new IllegalArgumentException(where + " has no job_id");
            }
            final boolean accounting = !j.has("job_state") && j.path("state").has("current"); // sacct / slurmdb
            if (!accounting && !j.has("job_state")) {
                throw new IllegalArgumentException(where + " (job " + id.asText() + "): no state: expected job_state "
                    + "(squeue/scontrol --json) or state.current (sacct --json), found keys " + fieldNames(j));
            }
            final JsonNode comment = j.path("comment").isObject() ? j.path("comment").path("job") : j.path("comment");
            final Map<String, String> metadata = new HashMap<>();
            if (comment.isTextual() && !comment.asText().isBlank()) {
                metadata.put("comment", comment.asText());
            }
            final String nodes = j.path("nodes").asText("");
            out.add(new ScheduledJob(id.asText(), j.path("name").asText(id.asText()),
                state(accounting ? j.path("state").get("current") : j.get("job_state")),
                HostList.expand(nodes.equals("None assigned") ? "" : nodes),
                seconds(accounting ? j.path("time").get("start") : j.get("start_time")),
                seconds(accounting ? j.path("time").get("end") : j.get("end_time")), metadata));
        }
        return out;
    }

    private static String fieldNames(final JsonNode node) {
        return FoundKeys.of(node, 8);
    }

    /** {@code scontrol show job -d}: jobs separated by blank lines; local times read in {@code zone}. */
    public static List<ScheduledJob> fromScontrol(final String text, final ZoneId zone) {
        final List<ScheduledJob> out = new ArrayList<>();
        for (final String block : text.split("\\R\\s*\\R")) {
            if (block.isBlank()) {
                continue;
            }
            final Map<String, String> fields = fields(block);
            final String id = fields.get("JobId");
            if (id == null) {
                throw new IllegalArgumentException("scontrol output: a job block without JobId: "
                    + block.strip().lines().findFirst().orElse(""));
            }
            final Map<String, String> metadata = new HashMap<>();
            if (fields.containsKey("Comment") && !fields.get("Comment").equals("(null)")) {
                metadata.put("comment", fields.get("Comment"));
            }
            out.add(new ScheduledJob(id, fields.getOrDefault("JobName", id), fields.getOrDefault("JobState", "UNKNOWN"),
                HostList.expand(fields.getOrDefault("NodeList", "")), localTime(fields.get("StartTime"), zone),
                localTime(fields.get("EndTime"), zone), metadata));
        }
        return out;
    }

    /** {@code Key=Value} tokens; {@code Comment=} and {@code Command=} take the rest of their line (values with spaces). */
    private static Map<String, String> fields(final String block) {
        final Map<String, String> fields = new HashMap<>();
        for (final String line : block.split("\\R")) {
            final String t = line.strip();
            if (t.startsWith("Comment=") || t.startsWith("Command=")) {
                final int eq = t.indexOf('=');
                fields.put(t.substring(0, eq), t.substring(eq + 1));
                continue;
            }
            for (final String token : t.split("\\s+")) {
                final int eq = token.indexOf('=');
                if (eq > 0) {
                    fields.putIfAbsent(token.substring(0, eq), token.substring(eq + 1));
                }
            }
        }
        return fields;
    }

    private static String state(final JsonNode s) {
        if (s == null || s.isNull()) {
            return "UNKNOWN";
        }
        return s.isArray() ? (s.isEmpty() ? "UNKNOWN" : s.get(0).asText()) : s.asText();
    }

    /** A number, plain or as SLURM's {@code {"set": true, "number": N}}; null when unset. */
    private static JsonNode number(final JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isObject()) {
            return n.path("set").asBoolean(true) && !n.path("infinite").asBoolean(false) && n.has("number")
                ? n.get("number") : null;
        }
        return n;
    }

    private static Long seconds(final JsonNode n) {
        final JsonNode v = number(n);
        return v == null || v.asLong(0) <= 0 ? null : v.asLong() * 1000;
    }

    private static Long localTime(final String text, final ZoneId zone) {
        if (text == null || text.equals("Unknown") || text.equals("None") || text.equals("N/A")) {
            return null;
        }
        try {
            return LocalDateTime.parse(text).atZone(zone).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("scontrol output: '" + text + "' is not a time like 2024-05-01T10:00:00", e);
        }
    }
}
