package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** /metrics is served on loopback unless another address is asked for. */
class MetricsServerTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void shouldBindLoopbackByDefault() throws Exception {
        registry.counter("fabric.test").increment();
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
            final HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("fabric_test_total 1.0");
            final Optional<InetAddress> external = externalAddress();
            assumeThat(external).as("a non-loopback address on this host").isPresent();
            assertThat(connects(external.get(), server.port())).as("reachable on " + external.get()).isFalse();
        }
    }

    @Test
    void shouldBindTheAddressAskedFor() throws IOException {
        try (MetricsServer server = MetricsServer.start(registry, "0.0.0.0", 0)) {
            assertThat(server.address().getAddress().isAnyLocalAddress()).isTrue();
            assertThat(connects(InetAddress.getLoopbackAddress(), server.port())).isTrue();
        }
    }

    private static Optional<InetAddress> externalAddress() throws IOException {
        return NetworkInterface.networkInterfaces().filter(MetricsServerTest::up)
            .flatMap(NetworkInterface::inetAddresses)
            .filter(a -> !a.isLoopbackAddress() && !a.isLinkLocalAddress() && a.getAddress().length == 4)
            .findFirst();
    }

    private static boolean up(final NetworkInterface n) {
        try {
            return n.isUp();
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean connects(final InetAddress address, final int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
