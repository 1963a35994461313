package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static dev.fabrictwin.cli.IngestExitStatusTest.runToStdout;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;

/**
 * {@code ingest --format rdma}: iproute2's {@code rdma statistic -j} of an mlx5 port, spiderpool's capture
 * (telemetry-ingest refdata/MANIFEST.tsv).
 */
class IngestRdmaTest {

    private static final Path MLX5 = Path.of("..", "telemetry-ingest", "src", "test", "resources", "refdata",
        "spiderpool-rdma-statistic", "metrics_test.go.TestProcessNetNS.sriov.L561-597.json");

    @Test
    void shouldIngestTheRealOutputAsOneSampleOfPortHcaSlashPort() {
        final Run r = runToStdout("ingest", "--format", "rdma", "--device", "gpu01", "--file", MLX5.toString(), "--output", "-");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out().strip().lines()).singleElement().satisfies(l -> assertThat(l).contains(
            "\"device\":\"gpu01\",\"port\":\"mlx5_1/1\",\"source\":\"rdma\"", "\"rx_write_requests\":2331678",
            "\"cnp_sent\":0", "\"cnp_handled\":0", "\"ecn_marked\":0").doesNotContain("np_cnp_sent", "ifname"));
        assertThat(r.errLines()).containsExactly("ingest: records in: 1, samples out: 1, rejected: 0");
    }

    @Test
    void shouldListRdmaAmongTheFormatsInHelp() {
        final Run r = run("ingest", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("ethtool, sysfs, rdma, sonic",
            "--format rdma reads the RDMA hardware counters of 'rdma statistic show -j'",
            "rdma statistic show -j | fabric-twin ingest --format rdma --device gpu01 --file - --output -");
    }
}
