package dev.fabrictwin.ingest.scrape;

import static dev.fabrictwin.ingest.format.AdapterContract.refdata;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.twin.telemetry.Sample;

/** {@code ingest --scrape} against a local HTTP server serving real node_exporter exposition (refdata/node_exporter). */
class ScraperTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    private HttpServer server;
    private final AtomicBoolean flakyUp = new AtomicBoolean(false);
    private final List<String> log = new ArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        final byte[] e2e = Files.readAllBytes(refdata("node_exporter/collector_fixtures_e2e-output.txt"));
        final byte[] ethtool = Files.readAllBytes(refdata("node_exporter/ethtool_linux_test.go.expected_exposition.L291-375.prom"));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", x -> answer(x, 200, e2e));
        server.createContext("/ethtool", x -> answer(x, 200, ethtool));
        server.createContext("/flaky", x -> answer(x, flakyUp.get() ? 200 : 503, flakyUp.get() ? ethtool : new byte[0]));
        server.start();
    }

    private static void answer(final com.sun.net.httpserver.HttpExchange x, final int status, final byte[] body) throws IOException {
        x.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(body);
        }
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private URI url(final String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private Scraper scraper(final List<ScrapeTarget> targets) {
        return new Scraper(targets, Duration.ofSeconds(2), ParseContext.defaults(CLOCK), CLOCK, log::add);
    }

    private static URI deadUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + s.getLocalPort() + "/metrics"); // closed again: connection refused
        }
    }

    @Test
    void shouldScrapeEachTargetWithItsHostOrNamedDeviceStampedWithTheScrapeTime() {
        final Scraper scraper = scraper(List.of(ScrapeTarget.of(url("/metrics")), new ScrapeTarget(url("/ethtool"), "gpu-host-7")));
        final CollectingSink sink = new CollectingSink();

        scraper.scrapeOnce(sink);

        assertThat(sink.records).isEqualTo(2); // one scrape per target
        assertThat(sink.rejections).isEmpty();
        final Sample ib = sink.only("127.0.0.1", "mlx4_0/1"); // default device: the target's host
        assertThat(ib.ts()).isEqualTo(CLOCK.millis());
        assertThat(ib.counters()).containsEntry("rx_bytes", 18_527_668L).containsEntry("rx_packets", 6_825_908_347L);
        assertThat(sink.only("127.0.0.1", "eth0").gauges()).containsEntry("speed_bps", 1e9);
        assertThat(sink.only("gpu-host-7", "eth0").counters()).containsEntry("rx_packets", 1_260_062L);
        assertThat(scraper.summary()).isEqualTo("scrapes: 1 rounds of 2 targets, failed: 0");
        assertThat(log).isEmpty();
    }

    @Test
    void shouldCountAFailingTargetLogItOncePerStateChangeAndKeepScrapingTheOthers() throws Exception {
        final URI dead = deadUrl();
        final ScrapeTarget flaky = new ScrapeTarget(url("/flaky"), "leaf-9");
        final Scraper scraper = scraper(List.of(ScrapeTarget.of(dead), flaky, new ScrapeTarget(url("/ethtool"), "ok-host")));
        final CollectingSink sink = new CollectingSink();

        scraper.scrapeOnce(sink);
        scraper.scrapeOnce(sink);
        flakyUp.set(true);
        scraper.scrapeOnce(sink);

        assertThat(sink.samples).extracting(Sample::device).containsExactly("ok-host", "ok-host", "leaf-9", "ok-host");
        assertThat(scraper.health().failures()).isEqualTo(5); // dead 3, flaky 2
        assertThat(log).hasSize(3);
        assertThat(log.get(0)).startsWith("target " + dead + " (127.0.0.1) is down: ConnectException")
            .endsWith("(logged again when it recovers)");
        assertThat(log.get(1)).isEqualTo("target " + flaky.url() + " (leaf-9) is down: HTTP 503 (logged again when it recovers)");
        assertThat(log.get(2)).isEqualTo("target " + flaky.url() + " (leaf-9) is up again");
        assertThat(scraper.summary()).isEqualTo("scrapes: 3 rounds of 3 targets, failed: 5 (" + dead + " 3, " + flaky.url() + " 2)");
    }

    @Test
    void shouldRunTheGivenNumberOfRoundsOnTheInterval() throws InterruptedException {
        final Scraper scraper = scraper(List.of(new ScrapeTarget(url("/ethtool"), "h")));
        final CollectingSink sink = new CollectingSink();
        final long start = System.nanoTime();

        scraper.run(sink, Duration.ofMillis(100), 3);

        assertThat(scraper.rounds()).isEqualTo(3);
        assertThat(sink.samples).hasSize(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void shouldReadTargetsWithOptionalDevicesAndRejectMistakesWithTheFix() {
        final List<ScrapeTarget> targets = ScrapeTargets.parse("""
            targets:
              - url: http://10.0.0.5:9100/metrics
                device: gpu-host-5
              - http://leaf-1:9101/metrics
            """);
        assertThat(targets).containsExactly(new ScrapeTarget(URI.create("http://10.0.0.5:9100/metrics"), "gpu-host-5"),
            new ScrapeTarget(URI.create("http://leaf-1:9101/metrics"), "leaf-1"));

        assertThatThrownBy(() -> ScrapeTargets.parse("targets: []"))
            .hasMessage("targets file needs a non-empty list 'targets:' of URLs or {url, device} entries");
        assertThatThrownBy(() -> ScrapeTargets.parse("targets:\n  - ftp://x/metrics"))
            .hasMessage("targets[0]: expected an http(s)://host[:port]/path URL, was 'ftp://x/metrics'");
        assertThatThrownBy(() -> ScrapeTargets.parse("targets:\n  - {url: 'http://a/m', host: b}"))
            .hasMessage("targets[0]: unknown key 'host' (expected url, device)");
        assertThatThrownBy(() -> ScrapeTargets.parse("targets:\n  - {url: 'http://a/m', device: ''}"))
            .hasMessage("targets[0]: 'device' must be a non-empty name");
        assertThatThrownBy(() -> ScrapeTargets.parse("targets:\n  - {device: x}"))
            .hasMessage("targets[0]: expected a URL or an object with 'url' (and optional 'device')");
        assertThatThrownBy(() -> ScrapeTargets.parse("targets: [unclosed"))
            .hasMessageStartingWith("targets file is not YAML: ");
    }
}
