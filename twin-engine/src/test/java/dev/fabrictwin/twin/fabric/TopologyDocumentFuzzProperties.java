package dev.fabrictwin.twin.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.JsonShapes;
import dev.fabrictwin.twin.fuzz.Mutants;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Placement;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The topology and jobs documents (what {@code topology import} writes and the analyzer loads) on hostile JSON:
 * each is a fabric / a placed job or an {@link IllegalArgumentException} with one line naming the entry; nothing
 * else escapes. Seeds are documents the writers produce for small fabrics of each kind.
 */
@Tag("fuzz")
@AddLifecycleHook(FuzzTries.class)
class TopologyDocumentFuzzProperties {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Fabric FABRIC = new SpineLeaf(2, 2, 2, 1, 400e9, 100e9, Technology.ROCE_V2).build("f");
    private static final List<String> TOPOLOGIES = List.of(FABRIC,
            FatTree.kAry(4, 1, 400e9, 400e9, Technology.INFINIBAND).build("ft"),
            new RailOptimized(4, 2, 2, 2, 400e9, 400e9, Technology.ROCE_V2).build("rail"))
        .stream().map(f -> FabricJson.toJson(f, JSON).toString()).toList();
    private static final List<String> JOBS = Placement.place(FABRIC, List.of(
            new JobSpec("llm-a", 2, List.of(), Pattern.parse("ring-allreduce"), 8_000_000_000L,
                Duration.ofSeconds(2), 0.35),
            new JobSpec("moe", 2, List.of("host-2", "host-3"), Pattern.parse("all-to-all"), 1_000, Duration.ofMillis(5), 0.9)),
            1).stream().map((PlacedJob j) -> JobJson.toJson(j, JSON).toString()).toList();

    @Property(tries = 500)
    void everyMutatedTopologyIsAFabricOrAOneLineError(@ForAll("topologyMutants") final String json) {
        readsOrFailsWithOneLine(json, root -> FabricJson.fromJson(root, "fuzz", Technology.ROCE_V2));
    }

    @Property(tries = 500)
    void everyStructuredTopologyIsAFabricOrAOneLineError(@ForAll("topologyTrees") final JsonNode root) {
        assertFabricOrOneLineError(() -> FabricJson.fromJson(root, "fuzz", Technology.ROCE_V2));
    }

    @Property(tries = 500)
    void everyMutatedJobIsPlacedOrAOneLineError(@ForAll("jobMutants") final String json) {
        readsOrFailsWithOneLine(json, TopologyDocumentFuzzProperties::placed);
    }

    @Property(tries = 500)
    void everyStructuredJobIsPlacedOrAOneLineError(@ForAll("jobTrees") final JsonNode root) {
        assertFabricOrOneLineError(() -> placed(root));
    }

    @Example
    void deepNestingIsAParseErrorBeforeAnyReaderSeesIt() {
        for (final String deep : List.of(Mutants.nested("[", 100_000), "{\"nodes\":" + Mutants.nested("[", 100_000))) {
            readsOrFailsWithOneLine(deep, root -> FabricJson.fromJson(root, "fuzz", Technology.ROCE_V2));
        }
    }

    private static Object placed(final JsonNode root) {
        final JobSpec spec = JobJson.fromJson(root);
        return Placement.place(FABRIC, List.of(spec), 1);
    }

    /** A document that is not JSON is the caller's parse error (one line too); one that is goes to the reader. */
    private static void readsOrFailsWithOneLine(final String json, final Function<JsonNode, Object> read) {
        final JsonNode root;
        try {
            root = JsonShapes.LENIENT.readTree(json.getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            return;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertFabricOrOneLineError(() -> read.apply(root));
    }

    private static void assertFabricOrOneLineError(final Supplier<Object> read) {
        try {
            assertThat(read.get()).isNotNull();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }

    @Provide
    Arbitrary<String> topologyMutants() {
        return Mutants.text(TOPOLOGIES);
    }

    @Provide
    Arbitrary<JsonNode> topologyTrees() {
        return JsonShapes.trees(TOPOLOGIES);
    }

    @Provide
    Arbitrary<String> jobMutants() {
        return Mutants.text(JOBS);
    }

    @Provide
    Arbitrary<JsonNode> jobTrees() {
        return JsonShapes.trees(JOBS);
    }
}
