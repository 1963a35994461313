package dev.fabrictwin.twin.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.FabricDocumentSpec;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.JobSpec;

/**
 * The fabric as it runs, from files: a topology document (as {@code topology import --out} or {@code simulate --out}
 * write it, the value of {@code fabric.topology}) and, optionally, a JSON array of job documents ({@code jobs import
 * --out}, {@code simulate --out}'s {@code jobs.json}: the values of {@code fabric.jobs}). Both are checked as the
 * analyzer reads them; a file that is not one says so in one line ({@link IllegalArgumentException}). What
 * {@code replay --topology} and {@code whatif --topology} read.
 */
public record FabricDocuments(String source, String defaultId, JsonNode topology, List<JsonNode> jobs) {

    /** A file holding more than one JSON value (JSON lines given for a document) is not a document. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public FabricDocuments {
        jobs = List.copyOf(jobs);
    }

    /** Reads and checks the two files; {@code jobsFile} may be null (no jobs). */
    public static FabricDocuments read(final Path topologyFile, final Path jobsFile) throws IOException {
        final JsonNode topology = tree(topologyFile, "topology");
        final List<JsonNode> jobs = new ArrayList<>();
        if (jobsFile != null) {
            final JsonNode array = tree(jobsFile, "jobs");
            if (!array.isArray()) {
                throw new IllegalArgumentException(jobsFile + ": not a JSON array of job documents (as 'jobs import --out' "
                    + "writes)");
            }
            array.forEach(jobs::add);
        }
        return of(topologyFile.toString(), topologyFile.getFileName().toString().replaceFirst("\\.[^.]*$", ""), topology,
            jobsFile == null ? "" : jobsFile.toString(), jobs);
    }

    /**
     * Checks documents already read: a topology from {@code source} (named {@code defaultId} when it has no id) and
     * jobs from {@code jobsSource}, as the analyzer reads them; the first unusable one is an
     * {@link IllegalArgumentException} naming its source.
     */
    public static FabricDocuments of(final String source, final String defaultId, final JsonNode topology,
                                     final String jobsSource, final List<JsonNode> jobs) {
        try {
            FabricJson.fromJson(topology, defaultId, Technology.ROCE_V2);
            PortNames.fromJson(topology.get("names"));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(source + ": not a usable topology document: " + e.getMessage(), e);
        }
        int i = 0;
        for (final JsonNode job : jobs) {
            try {
                JobJson.fromJson(job);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException(jobsSource + ": job #" + i + " is not a usable job document: "
                    + e.getMessage(), e);
            }
            i++;
        }
        return new FabricDocuments(source, defaultId, topology, jobs);
    }

    /** The fabric's id, as the document names it. */
    public String fabricId() {
        return topology.path("id").asText("fabric");
    }

    /**
     * A scenario of this fabric and these jobs, placed on the hosts their documents list, with the transport the
     * topology document declares and the default seed (so ECMP hashes as a scenario that names none), no faults. Its
     * duration and sample interval are placeholders: the documents have neither.
     */
    public Scenario scenario() {
        final List<JobSpec> specs = jobs.stream().map(JobJson::fromJson).toList();
        return new Scenario(fabricId(), Scenario.DEFAULT_SEED, Duration.ofHours(1), Duration.ofSeconds(1),
            Scenario.DEFAULT_EPOCH, new FabricDocumentSpec(topology, defaultId, source, Technology.ROCE_V2),
            Routing.ecmp(Scenario.DEFAULT_SEED), specs, List.of(), TelemetryProfile.defaults(),
            FabricJson.transport(topology), List.of(), List.of());
    }

    private static JsonNode tree(final Path file, final String what) throws IOException {
        try {
            return JSON.readTree(Files.readAllBytes(file));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not JSON (" + what + " file): " + e.getOriginalMessage(), e);
        }
    }
}
