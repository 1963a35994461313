package dev.fabrictwin.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/** Scenarios the benchmarks share, so {@code bench streams} and the JMH benchmarks measure the same telemetry. */
public final class BenchWorkloads {

    private BenchWorkloads() {
    }

    /** 768 ports (8 spines, 16 leaves, 256 hosts), three jobs, one degraded link; 600 s of 1 s samples. */
    public static Scenario streamsThroughput() {
        try (InputStream in = BenchWorkloads.class.getResourceAsStream("bench-streams.yaml")) {
            if (in == null) {
                throw new IllegalStateException("bench-streams.yaml missing from the classpath");
            }
            return ScenarioParser.parse(ScenarioParser.tree(new String(in.readAllBytes(), StandardCharsets.UTF_8)),
                Path.of("."));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
