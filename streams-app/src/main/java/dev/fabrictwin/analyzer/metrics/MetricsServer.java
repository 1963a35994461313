package dev.fabrictwin.analyzer.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** Serves a Prometheus registry at {@code /metrics} (text exposition) on the given address. */
public final class MetricsServer implements AutoCloseable {

    /** Loopback unless asked otherwise: metrics describe the fabric, so other hosts see them only by choice. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    private final HttpServer server;

    private MetricsServer(final HttpServer server) {
        this.server = server;
    }

    /** Starts serving on {@link #DEFAULT_HOST}. */
    public static MetricsServer start(final PrometheusMeterRegistry registry, final int port) throws IOException {
        return start(registry, DEFAULT_HOST, port);
    }

    /** Starts serving; a taken port is an {@link IllegalArgumentException} with a one-line reason. */
    public static MetricsServer start(final PrometheusMeterRegistry registry, final String host, final int port)
        throws IOException {
        final HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (BindException e) {
            throw new IllegalArgumentException("metrics port " + port + " on " + host + " is in use (use --metrics-port)", e);
        }
        server.createContext("/metrics", exchange -> {
            final byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return new MetricsServer(server);
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
