package dev.fabrictwin.cli.security;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.testing.kafka.TestCertificates;

/**
 * A client whose security settings do not match the broker's gets one line naming the likely cause and the address,
 * and exit 1, within seconds; before, TLS against a plaintext listener waited 60 s for "cannot reach Kafka … null".
 */
class KafkaConnectionErrorsTest {

    /** Far below the clients' 60 s api timeout; the probe itself needs about PROBE_AFTER (3 s) + a handshake. */
    private static final Duration PROMPT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static SecuredBroker secured;
    private static EmbeddedKafka plaintext;

    @BeforeAll
    static void startBrokers() {
        secured = new SecuredBroker(dir, "simulator");
        plaintext = EmbeddedKafka.startSingleBroker();
    }

    @AfterAll
    static void stop() {
        if (secured != null) {
            secured.close();
        }
        if (plaintext != null) {
            plaintext.close();
        }
    }

    @Test
    void shouldNameAProtocolMismatchWhenTlsMeetsAPlaintextListener() throws IOException {
        final String address = plaintext.bootstrapServers();

        final Timed r = simulate(address, secured.config("simulator"));

        assertThat(oneLineExitOnePromptly(r)).isEqualTo("fabric-twin simulate: cannot reach Kafka at " + address
            + ": security protocol mismatch: security.protocol=SASL_SSL but " + address + " does not speak TLS (a "
            + "PLAINTEXT or SASL_PLAINTEXT listener? set security.protocol to match it)");
    }

    @Test
    void shouldNameAProtocolMismatchWhenPlaintextMeetsATlsListener() {
        final String address = secured.kafka().bootstrapServers();

        final Timed r = simulate(address, null);

        assertThat(oneLineExitOnePromptly(r)).isEqualTo("fabric-twin simulate: cannot reach Kafka at " + address
            + ": security protocol mismatch: " + address + " speaks TLS but security.protocol=PLAINTEXT (set SSL or "
            + "SASL_SSL, with ssl.truststore.*)");
    }

    @Test
    void shouldSayAuthenticationFailedForAWrongPassword() throws IOException {
        final Properties p = secured.properties("simulator");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"simulator\" "
            + "password=\"wrong\";");

        final Timed r = simulate(secured.kafka().bootstrapServers(), secured.write("wrong-password.properties", p));

        assertThat(oneLineExitOnePromptly(r)).startsWith("fabric-twin simulate: authentication with "
            + "Kafka at " + secured.kafka().bootstrapServers() + " failed (check sasl.* in the config): ")
            .contains("invalid credentials");
    }

    @Test
    void shouldSayTheHandshakeFailedForAnUntrustedCertificate() throws IOException {
        final Path other = Files.createDirectories(dir.resolve("other-ca"));
        final Properties p = secured.properties("simulator");
        p.put("ssl.truststore.location", TestCertificates.saslSsl(other, "other-store", "x", "y").trustStore().toString());
        p.put("ssl.truststore.password", "other-store");

        final Timed r = simulate(secured.kafka().bootstrapServers(), secured.write("untrusted.properties", p));

        assertThat(oneLineExitOnePromptly(r)).startsWith("fabric-twin simulate: SSL handshake with "
            + "Kafka at " + secured.kafka().bootstrapServers() + " failed (check ssl.truststore.* in the config): ");
    }

    /** The one stderr line of a run that exited 1 within {@link #PROMPT}. */
    private static String oneLineExitOnePromptly(final Timed r) {
        assertThat(r.run().exitCode()).isEqualTo(1);
        assertThat(r.took()).isLessThan(PROMPT);
        assertThat(r.run().errLines()).hasSize(1);
        return r.run().errLines()[0];
    }

    private record Timed(Run run, Duration took) {
    }

    private static Timed simulate(final String bootstrap, final Path config) {
        final List<String> args = new ArrayList<>(List.of("simulate", "--scenario",
            Path.of("..", "scenarios", "pfc-storm-small.yaml").toString(), "--bootstrap", bootstrap));
        if (config != null) {
            args.addAll(List.of("--config", config.toString()));
        }
        final long start = System.nanoTime();
        final Run run = run(args.toArray(String[]::new));
        return new Timed(run, Duration.ofNanos(System.nanoTime() - start));
    }
}
