package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.cli.stack.DebianTools;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code ingest --scrape} against a real node_exporter: Debian's {@code prometheus-node-exporter} (1.5.0 in Debian 12,
 * installed by {@code scripts/install-debian-tools.sh}, which {@code .ci/run} calls), started by the test on loopback
 * with its netdev and netclass collectors, scraped twice through the real CLI. The values are checked against the
 * kernel's own counters: each of loopback's counters, read from {@code /sys/class/net/lo/statistics} before and
 * after the run, brackets what came out. A port whose speed the kernel does not know ({@code /sys/class/net/IF/speed}
 * is -1: virtio, veth, bonds, a link that is down; node_exporter says {@code node_network_speed_bytes -125000}) goes
 * out with its counters and without {@code speed_bps}, counted {@code speed-unknown}, never dead-lettered; on a
 * machine with no such port that part holds for no port and only "nothing rejected" is checked.
 */
class NodeExporterScrapeTest {

    static final String EXPORTER = "prometheus-node-exporter";
    private static final String DEVICE = "gpu-host-1";
    private static final int ROUNDS = 2;
    private static final Duration READY_DEADLINE = Duration.ofSeconds(60);
    private static final Path NET = Path.of("/sys/class/net");
    /** Canonical counter -> the kernel's name in /sys/class/net/IF/statistics (node_network_* as prometheus.tsv maps them). */
    private static final Map<String, String> KERNEL_NAMES = new LinkedHashMap<>();

    static {
        KERNEL_NAMES.put("rx_bytes", "rx_bytes");
        KERNEL_NAMES.put("tx_bytes", "tx_bytes");
        KERNEL_NAMES.put("rx_packets", "rx_packets");
        KERNEL_NAMES.put("tx_packets", "tx_packets");
        KERNEL_NAMES.put("rx_drops", "rx_dropped");
        KERNEL_NAMES.put("tx_drops", "tx_dropped");
    }

    @TempDir
    Path dir;

    private Process exporter;

    @AfterEach
    void stopExporter() throws InterruptedException {
        if (exporter != null) {
            exporter.destroy();
            if (!exporter.waitFor(20, TimeUnit.SECONDS)) {
                exporter.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void shouldScrapeARealNodeExporterWhoseLoopbackCountersAreTheKernelsAndKeepPortsOfUnknownSpeed() throws Exception {
        DebianTools.require(EXPORTER);
        final int port = startExporter();
        final String url = "http://127.0.0.1:" + port + "/metrics";
        final Path targets = Files.writeString(dir.resolve("targets.yaml"), "targets:\n  - url: " + url + "\n    device: "
            + DEVICE + "\n");
        final Path rejected = dir.resolve("scrape.rejected");
        final Map<String, Long> speeds = speedsInMbps();
        final long unknownSpeed = speeds.values().stream().filter(s -> s == -1).count();

        final long from = System.currentTimeMillis();
        final Map<String, Long> before = statistics("lo");
        final Run r = IngestExitStatusTest.runToStdout("ingest", "--scrape", targets.toString(), "--scrapes",
            Integer.toString(ROUNDS), "--interval", "300ms", "--timeout", "10s", "--output", "-", "--rejected", rejected.toString());
        final Map<String, Long> after = statistics("lo");
        final long to = System.currentTimeMillis();

        assertThat(r.exitCode()).as("exit code; stderr: %s", r.err()).isZero();
        final List<Sample> samples = samples(r.out());
        assertThat(r.errLines()).containsExactly("ingest: records in: " + ROUNDS + ", samples out: " + samples.size()
            + ", rejected: 0" + (unknownSpeed == 0 ? ""
                : ", values dropped: " + ROUNDS * unknownSpeed + " (speed-unknown " + ROUNDS * unknownSpeed + ")")
            + "; scrapes: " + ROUNDS + " rounds of 1 targets, failed: 0");
        assertThat(rejected).as("nothing dead-lettered").doesNotExist();
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.device()).isEqualTo(DEVICE);
            assertThat(s.ts()).isBetween(from, to);
        });

        // loopback, present on every Linux machine: each round's counters are the kernel's at that moment
        final List<Sample> lo = samples.stream().filter(s -> s.port().equals("lo")).toList();
        assertThat(lo).as("samples of port lo, one a round").hasSize(ROUNDS);
        assertThat(lo.get(0).ts()).isLessThan(lo.get(1).ts());
        for (final String counter : KERNEL_NAMES.keySet()) {
            final long first = lo.get(0).counters().get(counter);
            final long second = lo.get(1).counters().get(counter);
            assertThat(first).as("lo %s, first scrape, within the kernel's before and after", counter)
                .isBetween(before.get(counter), after.get(counter));
            assertThat(second).as("lo %s, second scrape, not below the first and within the kernel's", counter)
                .isBetween(first, after.get(counter));
        }
        assertThat(lo.get(0).counters().get("rx_packets")).as("the scrape's own request crossed lo before the exporter read it")
            .isGreaterThan(before.get("rx_packets"));
        assertThat(lo.get(0).gauges()).as("lo has no speed (the kernel answers EINVAL); node_network_up: operstate %s",
                operstate("lo"))
            .doesNotContainKey("speed_bps").containsEntry("oper_up", "up".equals(operstate("lo")) ? 1.0 : 0.0);

        // every port with a speed: -1 (unknown) is left out of an otherwise complete sample; a known one is bit/s
        speeds.forEach((name, mbps) -> {
            final List<Sample> of = samples.stream().filter(s -> s.port().equals(name)).toList();
            assertThat(of).as("samples of port %s (speed %d Mb/s)", name, mbps).hasSize(ROUNDS).allSatisfy(s -> {
                assertThat(s.counters()).containsKeys("rx_bytes", "tx_bytes", "rx_packets", "tx_packets");
                assertThat(s.gauges()).containsKey("oper_up");
                if (mbps == -1) {
                    assertThat(s.gauges()).doesNotContainKey("speed_bps");
                } else {
                    assertThat(s.gauges()).containsEntry("speed_bps", mbps * 1_000_000.0);
                }
            });
        });
    }

    /** Starts the exporter on a free loopback port (another if that one was taken meanwhile) and waits until it answers. */
    private int startExporter() throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            final int port = freePort();
            final Path log = dir.resolve("node-exporter-" + attempt + ".log");
            exporter = new ProcessBuilder(EXPORTER, "--web.listen-address=127.0.0.1:" + port,
                // only the network collectors: quick, and nothing else on the page; all interfaces, loopback included
                // (Debian's build excludes ^lo$ from netdev by default)
                "--collector.disable-defaults", "--collector.netdev", "--collector.netclass",
                "--collector.netdev.device-exclude=^$", "--web.disable-exporter-metrics")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            final Optional<String> exited = awaitAnswer(port, exporter, log);
            if (exited.isEmpty()) {
                return port;
            }
            if (!exited.get().contains("address already in use") || attempt == 3) {
                throw new AssertionError(EXPORTER + " exited with " + exporter.exitValue() + ": " + exited.get());
            }
        }
    }

    /** Polls /metrics until it answers 200 (empty), or the exporter exits (its log), failing after the deadline. */
    private static Optional<String> awaitAnswer(final int port, final Process p, final Path log)
        throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + READY_DEADLINE.toNanos();
        while (!answers(port)) {
            if (p.waitFor(250, TimeUnit.MILLISECONDS)) { // a bounded wait on the process, not a sleep
                return Optional.of(Files.readString(log).strip());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(EXPORTER + " did not answer on port " + port + " within " + READY_DEADLINE + ": "
                    + Files.readString(log).strip());
            }
        }
        return Optional.empty();
    }

    private static boolean answers(final int port) {
        return HttpProbe.answers("http://127.0.0.1:" + port + "/metrics");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static List<Sample> samples(final String out) throws SampleFormatException {
        final List<Sample> samples = new ArrayList<>();
        for (final String line : out.split("\\R")) {
            if (!line.isBlank()) {
                samples.add(SampleJson.read(line));
            }
        }
        return samples;
    }

    /** An interface's counters as the kernel has them now, under their canonical names. */
    private static Map<String, Long> statistics(final String iface) throws IOException {
        final Map<String, Long> values = new TreeMap<>();
        for (final var e : KERNEL_NAMES.entrySet()) {
            values.put(e.getKey(), Long.parseLong(Files.readString(NET.resolve(iface).resolve("statistics").resolve(e.getValue()))
                .strip()));
        }
        return values;
    }

    private static String operstate(final String iface) {
        try {
            return Files.readString(NET.resolve(iface).resolve("operstate")).strip();
        } catch (IOException e) {
            throw new AssertionError("cannot read " + iface + "'s operstate", e);
        }
    }

    /** Each interface whose /sys/class/net/IF/speed reads (Mb/s, -1 when unknown); those that answer EINVAL (lo) are left out. */
    private static Map<String, Long> speedsInMbps() throws IOException {
        final Map<String, Long> speeds = new TreeMap<>();
        try (Stream<Path> ifaces = Files.list(NET)) {
            for (final Path iface : ifaces.sorted().toList()) {
                try {
                    speeds.put(iface.getFileName().toString(), Long.parseLong(Files.readString(iface.resolve("speed")).strip()));
                } catch (IOException | NumberFormatException noSpeed) {
                    // no speed for this kind of interface: node_exporter exports none either
                }
            }
        }
        return speeds;
    }
}
