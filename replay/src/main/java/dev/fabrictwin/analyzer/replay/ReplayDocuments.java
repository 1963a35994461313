package dev.fabrictwin.analyzer.replay;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.FabricDocuments;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * What a replay feeds the topology before the samples, as {@code analyze} reads it from its topics: the topology
 * document keyed by fabric id, the job documents keyed by job id (in declaration order), and the sample interval
 * the analysis ticks at.
 */
public record ReplayDocuments(String fabricId, byte[] topology, Map<String, byte[]> jobs, long sampleIntervalMs) {

    /** Writes the documents as bytes and reads the topology back (FabricDocuments checked it when read). */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public ReplayDocuments {
        if (sampleIntervalMs <= 0) {
            throw new IllegalArgumentException("the sample interval must be > 0 ms, was " + sampleIntervalMs);
        }
        jobs = Collections.unmodifiableMap(new LinkedHashMap<>(jobs));
    }

    /** A scenario's fabric and declared jobs (its faults are not read) and its sample interval. */
    public static ReplayDocuments of(final Scenario scenario) {
        final Twin twin = Twin.healthy(scenario, ModelParams.defaults());
        final Map<String, byte[]> jobs = new LinkedHashMap<>();
        try {
            for (final PlacedJob j : twin.jobs()) {
                jobs.put(j.id(), JSON.writeValueAsBytes(JobJson.toJson(j, JSON)));
            }
            return new ReplayDocuments(scenario.name(),
                JSON.writeValueAsBytes(FabricJson.toJson(twin.fabric(), scenario.transport(), JSON)), jobs,
                scenario.sampleInterval().toMillis());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the scenario's documents", e);
        }
    }

    /**
     * A topology document file (as {@code topology import --out} or {@code simulate --out} write it) and, when
     * {@code jobsFile} is not null, a JSON array of job documents ({@code jobs import --out}, {@code simulate --out}'s
     * {@code jobs.json}), read and checked by {@link FabricDocuments#read}; a file that is not one says so in one line
     * ({@link IllegalArgumentException}).
     */
    public static ReplayDocuments read(final Path topologyFile, final Path jobsFile, final long sampleIntervalMs)
        throws IOException {
        final FabricDocuments documents = FabricDocuments.read(topologyFile, jobsFile);
        final Map<String, byte[]> jobs = new LinkedHashMap<>();
        for (final JsonNode job : documents.jobs()) {
            jobs.put(JobJson.fromJson(job).id(), JSON.writeValueAsBytes(job));
        }
        return new ReplayDocuments(documents.fabricId(), JSON.writeValueAsBytes(documents.topology()), jobs,
            sampleIntervalMs);
    }

    /** The same documents, ticked at {@code ms}. */
    public ReplayDocuments withSampleIntervalMs(final long ms) {
        return new ReplayDocuments(fabricId, topology, jobs, ms);
    }

    /** The fabric the topology document describes. */
    public Fabric fabric() {
        return FabricJson.fromJson(topologyTree(), "fabric", Technology.ROCE_V2);
    }

    /** Resolves telemetry names against this topology, as the analysis does. */
    PortNames.Resolver resolver() {
        return PortNames.fromJson(topologyTree().get("names")).bind(fabric());
    }

    private JsonNode topologyTree() {
        try {
            return JSON.readTree(topology);
        } catch (IOException e) {
            throw new IllegalStateException("the topology document was checked when read", e);
        }
    }
}
