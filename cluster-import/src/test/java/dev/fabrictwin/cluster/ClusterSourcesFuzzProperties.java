package dev.fabrictwin.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.cluster.jobs.JobImport;
import dev.fabrictwin.cluster.jobs.JobShape;
import dev.fabrictwin.cluster.jobs.KubernetesPods;
import dev.fabrictwin.cluster.jobs.ScheduledJob;
import dev.fabrictwin.cluster.jobs.SlurmJobs;
import dev.fabrictwin.cluster.topology.EosLldpJson;
import dev.fabrictwin.cluster.topology.GnmicLldp;
import dev.fabrictwin.cluster.topology.Iblinkinfo;
import dev.fabrictwin.cluster.topology.Ibnetdiscover;
import dev.fabrictwin.cluster.topology.LinksCsv;
import dev.fabrictwin.cluster.topology.LldpctlJson;
import dev.fabrictwin.cluster.topology.LldpctlKeyvalue;
import dev.fabrictwin.cluster.topology.NxosLldpJson;
import dev.fabrictwin.cluster.topology.Observations;
import dev.fabrictwin.cluster.topology.SonicLldp;
import dev.fabrictwin.cluster.topology.TopologyMerger;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.JsonShapes;
import dev.fabrictwin.twin.fuzz.Mutants;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Every {@code topology import} and {@code jobs import} source on hostile input, read as the CLI reads it (parse,
 * reader, then merge or job shaping): the result is a topology / job documents, or an
 * {@link IllegalArgumentException} with one line (exit 2), or, for a JSON source, Jackson's parse error (also
 * one line in the CLI). Seeds are the module's real and hand-made captures.
 */
@Tag("fuzz")
@AddLifecycleHook(FuzzTries.class)
class ClusterSourcesFuzzProperties {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One source: its seeds and how the CLI reads a text of it. */
    private enum Source {
        LLDPCTL(true, List.of("""
            {"lldp": {"interface": [
              {"swp1": {"chassis": {"gpu01": {"capability": [{"type": "Station", "enabled": true}]}},
                        "port": {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}, "descr": "eth0"}}},
              {"swp51": {"chassis": {"spine1": {"capability": [{"type": "Bridge", "enabled": true}]}},
                         "port": {"id": {"type": "ifname", "value": "swp1"}, "descr": "to leaf1"}, "speed": "400G"}}]}}
            """, """
            {"lldp": {"interface": {"eth0": {"chassis": {"leaf1": {}}, "port": {"id": {"type": "ifname", "value": "swp1"}}}}}}
            """)),
        LLDPCTL_KEYVALUE(false, List.of(resource("refdata/debian-lldpd/leaf01.lldpctl-keyvalue.txt"))),
        SONIC_LLDP(true, List.of(resource("handmade/appl_db-lldp.json"))),
        EOS_LLDP(true, List.of(resource("refdata/napalm-eos/issue1153.show_lldp_neighbors__detail.json"))),
        NXOS_LLDP(true, List.of(resource("refdata/suzieq-nxos/exit01.show_lldp_neighbors_json_native.json"),
            resource("refdata/netapp-harvest-nxos/lldp.json"))),
        GNMIC_LLDP(true, List.of(resource("handmade/gnmic-lldp.json"))),
        IBNETDISCOVER(false, List.of(resource("handmade/ibnetdiscover-2-switch.txt"), resource("refdata/hpc-toolset-x5/X5.topofile"))),
        IBLINKINFO(false, List.of(resource("refdata/debian-ibsim/iblinkinfo.txt"))),
        LINKS_CSV(false, List.of("a_device,a_port,b_device,b_port,speed\n# the plan\nn1,p1,sw1,1,200G\nsw1,49,sw2,1\n")),
        SQUEUE_JSON(true, List.of(resource("refdata/rivos-slurm-exporter/squeue_out.json"))),
        SCONTROL(false, List.of(resource("handmade/scontrol-show-job.txt"))),
        KUBECTL_PODS(true, List.of(resource("handmade/kubectl-get-pods.json"))),
        JOB_MAPPING(true, List.of("""
            {"rules": [{"match": "^llm-", "pattern": "all-to-all", "bytesPerIteration": "16GB", "iterationPeriod": "4s",
                        "commFraction": 0.4}, {"match": ".*", "pattern": "ring-allreduce"}]}
            """));

        final boolean json;
        final List<String> seeds;

        Source(final boolean json, final List<String> seeds) {
            this.json = json;
            this.seeds = seeds;
        }

        /** What the CLI does with a parsed document of this source. */
        Object read(final JsonNode root) {
            return switch (this) {
                case LLDPCTL -> topology(LldpctlJson.read("leaf1", root));
                case SONIC_LLDP -> topology(SonicLldp.read("leaf07", root));
                case EOS_LLDP -> topology(EosLldpJson.read("leaf07", root));
                case NXOS_LLDP -> topology(NxosLldpJson.read("leaf07", root));
                case GNMIC_LLDP -> topology(GnmicLldp.read(null, root));
                case SQUEUE_JSON -> jobs(SlurmJobs.fromJson(root));
                case KUBECTL_PODS -> jobs(KubernetesPods.fromJson(root));
                case JOB_MAPPING -> JobShape.rules(root);
                default -> throw new IllegalStateException(this + " is a text source");
            };
        }

        Object read(final String text) throws JsonProcessingException {
            return switch (this) {
                case LLDPCTL_KEYVALUE -> topology(LldpctlKeyvalue.read("leaf1", text));
                case IBNETDISCOVER -> topology(Ibnetdiscover.read(text));
                case LINKS_CSV -> topology(LinksCsv.read(text));
                case IBLINKINFO -> topology(Iblinkinfo.read(text));
                case SCONTROL -> jobs(SlurmJobs.fromScontrol(text, ZoneId.of("UTC")));
                default -> read(JSON.readTree(text));
            };
        }
    }

    @Property(tries = 1000)
    void everyMutatedSourceIsReadOrAOneLineError(@ForAll("mutants") final Tuple2<Source, String> input) {
        Statistics.collect(input.get1(), assertReadOrOneLineError(() -> input.get1().read(input.get2())));
    }

    @Property(tries = 500)
    void everyStructuredJsonSourceIsReadOrAOneLineError(@ForAll("trees") final Tuple2<Source, JsonNode> input) {
        Statistics.collect(input.get1(), assertReadOrOneLineError(() -> input.get1().read(input.get2())));
    }

    @Example
    void hugeLinesAndDeepNestingAreOneLineErrors() {
        final String deep = Mutants.nested("[", 100_000);
        final String huge = new String(Mutants.longLine("S-0002c9030003f4e2[1] ", 24 << 20), StandardCharsets.UTF_8);
        for (final Source source : Source.values()) {
            assertReadOrOneLineError(() -> source.read(deep));
            assertReadOrOneLineError(() -> source.read(huge));
        }
    }

    private static Object topology(final Observations o) {
        final TopologyMerger.Result r = TopologyMerger.merge(o, List.of(), 400e9, "fuzz", Technology.ROCE_V2, JSON);
        FabricJson.fromJson(r.document(), "fuzz", Technology.ROCE_V2); // what the analyzer will load
        return r;
    }

    private static Object jobs(final List<ScheduledJob> jobs) {
        return JobImport.of(jobs, List.of(), JSON);
    }

    private interface Read {
        Object run() throws JsonProcessingException;
    }

    /** Returns the outcome, for the statistics: "read" or the error's type. */
    private static String assertReadOrOneLineError(final Read read) {
        try {
            assertThat(read.run()).isNotNull();
            return "read";
        } catch (IllegalArgumentException | JsonProcessingException e) {
            assertThat(e.getMessage()).isNotBlank();
            if (e instanceof IllegalArgumentException) {
                assertThat(e.getMessage()).doesNotContain("\n");
            }
            return e instanceof IllegalArgumentException ? "one-line error" : "not JSON";
        }
    }

    @Provide
    Arbitrary<Tuple2<Source, String>> mutants() {
        return Arbitraries.of(Source.values()).flatMap(s -> Mutants.text(s.seeds).map(t -> Tuple.of(s, t)));
    }

    @Provide
    Arbitrary<Tuple2<Source, JsonNode>> trees() {
        return Arbitraries.of(List.of(Source.values()).stream().filter(s -> s.json).toList())
            .flatMap(s -> JsonShapes.trees(s.seeds).map(t -> Tuple.of(s, t)));
    }

    private static String resource(final String path) {
        try (InputStream in = ClusterSourcesFuzzProperties.class.getResourceAsStream("/" + path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
