package dev.fabrictwin.simulator;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.contract.truth.TruthJson;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * {@code simulate --out DIR}: {@code samples.jsonl} (canonical samples in delivery order),
 * {@code truth.jsonl} (one injected fault per line), {@code topology.json} and {@code jobs.json}.
 */
public final class SimulationFiles {

    public static final String SAMPLES = "samples.jsonl";
    public static final String TRUTH = "truth.jsonl";
    public static final String TOPOLOGY = "topology.json";
    public static final String JOBS = "jobs.json";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SimulationFiles() {
    }

    /** Writes the four files; returns the number of samples written. */
    public static long write(final SyntheticCluster cluster, final Path dir, final LongConsumer progress) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(TOPOLOGY), topologyJson(cluster) + "\n");
            Files.writeString(dir.resolve(JOBS), jobsJson(cluster) + "\n");
            try (BufferedWriter truth = Files.newBufferedWriter(dir.resolve(TRUTH), StandardCharsets.UTF_8)) {
                for (final TruthRecord t : cluster.truth()) {
                    truth.write(MAPPER.writeValueAsString(TruthJson.toJson(t, MAPPER)));
                    truth.newLine();
                }
            }
            try (BufferedWriter out = Files.newBufferedWriter(dir.resolve(SAMPLES), StandardCharsets.UTF_8)) {
                return cluster.run(s -> {
                    try {
                        out.write(SampleJson.write(s));
                        out.newLine();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, progress);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write simulation output to " + dir + ": " + e.getMessage(), e);
        }
    }

    public static String topologyJson(final SyntheticCluster cluster) {
        try {
            return MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(FabricJson.toJson(cluster.fabric(), cluster.scenario().transport(), MAPPER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String jobsJson(final SyntheticCluster cluster) {
        final ArrayNode jobs = MAPPER.createArrayNode();
        for (final PlacedJob j : cluster.twin().jobs()) {
            jobs.add(JobJson.toJson(j, MAPPER));
        }
        try {
            return MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(jobs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
