package dev.fabrictwin.cluster.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.twin.units.Units;

/**
 * What a job's collectives look like — pattern, bytes per iteration, iteration period, comm fraction — which no
 * scheduler knows. In order: the job's own metadata (a SLURM comment {@code fabric-twin: pattern=ring-allreduce
 * bytes=8GB period=2s comm=0.35}; Kubernetes annotations {@code fabric-twin.dev/pattern},
 * {@code fabric-twin.dev/bytes-per-iteration}, {@code fabric-twin.dev/iteration-period},
 * {@code fabric-twin.dev/comm-fraction}), then the first mapping rule whose regex finds the job's name, then
 * {@link #DEFAULT}. Values mean what they mean in a scenario ({@code 8GB} is 8×10⁹ bytes, periods take ms/s/m).
 */
public record JobShape(String pattern, long bytesPerIteration, Duration iterationPeriod, double commFraction) {

    /** A job nothing describes: a ring all-reduce of 1 GB per 1 s iteration, 30 % of it communicating. */
    public static final JobShape DEFAULT = new JobShape("ring-allreduce", 1_000_000_000L, Duration.ofSeconds(1), 0.3);

    static final String COMMENT_PREFIX = "fabric-twin:";
    static final String ANNOTATION_PREFIX = "fabric-twin.dev/";

    /** Where a shape came from, for the import report. */
    public enum Source { METADATA, MAPPING, DEFAULT }

    /** A mapping rule: a regex on the job name and the values it sets (null = keep the default's). */
    public record Rule(Pattern match, Map<String, String> values) {
    }

    /** The shape of {@code job} and where it came from. */
    public static Map.Entry<JobShape, Source> of(final ScheduledJob job, final List<Rule> rules) {
        final Map<String, String> declared = declared(job.metadata());
        if (!declared.isEmpty()) {
            return Map.entry(DEFAULT.with(declared, "job " + job.id()), Source.METADATA);
        }
        for (final Rule r : rules) {
            if (r.match().matcher(job.name()).find()) {
                return Map.entry(DEFAULT.with(r.values(), "mapping rule '" + r.match().pattern() + "'"), Source.MAPPING);
            }
        }
        return Map.entry(DEFAULT, Source.DEFAULT);
    }

    /** A mapping file: {@code rules: [{match: REGEX, pattern:, bytesPerIteration:, iterationPeriod:, commFraction:}]}. */
    public static List<Rule> rules(final JsonNode root) {
        final List<Rule> rules = new ArrayList<>();
        final JsonNode list = root == null ? null : root.get("rules");
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("a job mapping needs a 'rules' list of {match, pattern, bytesPerIteration, "
                + "iterationPeriod, commFraction}");
        }
        int i = 0;
        for (final JsonNode r : list) {
            final String where = "rules[" + i++ + "]";
            if (!r.hasNonNull("match")) {
                throw new IllegalArgumentException(where + " needs 'match' (a regex on the job name)");
            }
            final Map<String, String> values = new HashMap<>();
            for (final String key : List.of("pattern", "bytesPerIteration", "iterationPeriod", "commFraction")) {
                if (r.hasNonNull(key)) {
                    values.put(key, r.get(key).asText());
                }
            }
            try {
                final Rule rule = new Rule(Pattern.compile(r.get("match").asText()), values);
                DEFAULT.with(values, where); // refuse bad values now, not when a job first matches
                rules.add(rule);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(where + ": bad regex: " + e.getDescription(), e);
            }
        }
        return rules;
    }

    /** The values a job's metadata declares, under the mapping's keys. */
    private static Map<String, String> declared(final Map<String, String> metadata) {
        final Map<String, String> out = new HashMap<>();
        final String comment = metadata.getOrDefault("comment", "");
        final int at = comment.indexOf(COMMENT_PREFIX);
        if (at >= 0) {
            for (final String token : comment.substring(at + COMMENT_PREFIX.length()).strip().split("[\\s,;]+")) {
                final int eq = token.indexOf('=');
                if (eq > 0) {
                    out.put(switch (token.substring(0, eq)) {
                        case "bytes" -> "bytesPerIteration";
                        case "period" -> "iterationPeriod";
                        case "comm" -> "commFraction";
                        default -> token.substring(0, eq);
                    }, token.substring(eq + 1));
                }
            }
        }
        Map.of("pattern", "pattern", "bytes-per-iteration", "bytesPerIteration", "iteration-period", "iterationPeriod",
            "comm-fraction", "commFraction").forEach((annotation, key) -> {
                final String v = metadata.get(ANNOTATION_PREFIX + annotation);
                if (v != null) {
                    out.put(key, v);
                }
            });
        return out;
    }

    private JobShape with(final Map<String, String> values, final String where) {
        try {
            final String p = values.getOrDefault("pattern", pattern);
            dev.fabrictwin.twin.workload.Pattern.parse(p);
            return new JobShape(p,
                values.containsKey("bytesPerIteration") ? Units.parseBytes(values.get("bytesPerIteration")) : bytesPerIteration,
                values.containsKey("iterationPeriod") ? Units.parseDuration(values.get("iterationPeriod")) : iterationPeriod,
                values.containsKey("commFraction") ? Double.parseDouble(values.get("commFraction")) : commFraction);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
