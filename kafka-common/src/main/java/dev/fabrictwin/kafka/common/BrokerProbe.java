package dev.fabrictwin.kafka.common;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Says why a broker does not answer a client that keeps retrying. A TLS client at a plaintext listener (or the
 * reverse) is never told what is wrong: the broker just drops the connection and the client retries until its
 * timeout. Connecting once ourselves, and trying a TLS handshake, tells these cases apart in a second or two.
 */
public final class BrokerProbe {

    private static final int TIMEOUT_MS = 3_000;

    private BrokerProbe() {
    }

    /**
     * What the probe found, one line naming the address. A protocol mismatch is {@code conclusive}: waiting cannot
     * help. A closed port is not: the broker may still be starting.
     */
    public record Finding(String message, boolean conclusive) {
    }

    /** The likely cause, when the first bootstrap server shows one. */
    public static Optional<Finding> diagnose(final Properties clientConfig) {
        final String bootstrap = String.valueOf(clientConfig.get("bootstrap.servers")).split(",")[0].strip();
        final int colon = bootstrap.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        final String host = bootstrap.substring(0, colon);
        final int port;
        try {
            port = Integer.parseInt(bootstrap.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        final String protocol = String.valueOf(clientConfig.getOrDefault("security.protocol", "PLAINTEXT"))
            .toUpperCase(Locale.ROOT);
        final boolean clientTls = protocol.endsWith("SSL");
        final Boolean brokerTls;
        try {
            brokerTls = speaksTls(host, port);
        } catch (UnknownHostException e) {
            return Optional.of(new Finding("unknown host " + host + " (bootstrap " + bootstrap + ")", false));
        } catch (ConnectException e) {
            return Optional.of(new Finding("nothing accepts connections at " + bootstrap + " (" + e.getMessage()
                + "): is the broker running, and is this its client listener?", false));
        } catch (SocketTimeoutException e) {
            return Optional.of(new Finding(bootstrap + " does not accept a TCP connection within " + TIMEOUT_MS / 1000
                + " s (wrong address, or a firewall?)", false));
        } catch (IOException e) {
            return Optional.empty();
        }
        if (brokerTls == null || brokerTls == clientTls) {
            return Optional.empty();
        }
        return Optional.of(new Finding(clientTls
            ? "security protocol mismatch: security.protocol=" + protocol + " but " + bootstrap + " does not speak TLS "
                + "(a PLAINTEXT or SASL_PLAINTEXT listener? set security.protocol to match it)"
            : "security protocol mismatch: " + bootstrap + " speaks TLS but security.protocol=" + protocol
                + " (set SSL or SASL_SSL, with ssl.truststore.*)", true));
    }

    /**
     * True if the listener completes (or refuses with a TLS alert) a handshake, false if it drops the connection or
     * answers something that is not TLS, null if it stays silent. The certificate is not checked: only the protocol.
     */
    static Boolean speaksTls(final String host, final int port) throws IOException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            plain.setSoTimeout(TIMEOUT_MS);
            try (SSLSocket tls = (SSLSocket) anyCertificate().getSocketFactory().createSocket(plain, host, port, false)) {
                tls.startHandshake();
                return true;
            } catch (SocketTimeoutException e) {
                return null;
            } catch (SSLException e) {
                // a TLS peer that rejects us still answers with an alert; a plaintext Kafka listener just closes
                return e.getMessage() != null && e.getMessage().contains("Received fatal alert");
            } catch (IOException e) {
                return false;
            }
        }
    }

    private static SSLContext anyCertificate() throws IOException {
        final TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(final X509Certificate[] chain, final String authType) {
            }

            @Override
            public void checkServerTrusted(final X509Certificate[] chain, final String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustAll}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("no TLS in this JVM: " + e.getMessage(), e);
        }
    }
}
