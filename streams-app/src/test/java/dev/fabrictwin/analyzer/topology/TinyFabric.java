package dev.fabrictwin.analyzer.topology;

import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;

/** The topology tests' fabric: 2 spines, 2 leaves, 4 hosts with one 100G NIC each, no job (16 sampled ports). */
final class TinyFabric {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TinyFabric() {
    }

    static Fabric fabric() {
        return fabric(2);
    }

    /** The same with {@code hostsPerLeaf} hosts under each leaf (hosts host-0 … host-{2·hostsPerLeaf − 1}). */
    static Fabric fabric(final int hostsPerLeaf) {
        return Twin.healthy(ScenarioParser.parse(ScenarioParser.tree("""
            name: tiny
            duration: 60s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: %d, nicsPerHost: 1, linkSpeed: 100G}
            jobs: []
            """.formatted(hostsPerLeaf)), Path.of(".")), ModelParams.defaults()).fabric();
    }

    /** Its topology document, as {@code fabric.topology} carries it. */
    static byte[] document(final Fabric fabric) {
        try {
            return JSON.writeValueAsBytes(FabricJson.toJson(fabric, JSON));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
