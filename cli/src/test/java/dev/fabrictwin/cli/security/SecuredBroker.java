package dev.fabrictwin.cli.security;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.kafka.embedded.SaslSslListener;
import dev.fabrictwin.testing.kafka.TestCertificates;

/**
 * An in-JVM broker whose client listener is SASL_SSL (SCRAM-SHA-512, ACLs enforced), its certificates made in
 * {@code dir}, with a SCRAM user per name. Passwords are random per run, so finding one in a log is no coincidence.
 */
final class SecuredBroker implements AutoCloseable {

    static final String ADMIN = "admin";

    private final Path dir;
    private final Map<String, String> passwords;
    private final String storePassword = secret();
    private final SaslSslListener tls;
    private final EmbeddedKafka kafka;

    SecuredBroker(final Path dir, final String... users) {
        this.dir = dir;
        this.passwords = Stream.concat(Stream.of(ADMIN), Stream.of(users))
            .collect(Collectors.toUnmodifiableMap(Function.identity(), u -> secret()));
        this.tls = TestCertificates.saslSsl(dir, storePassword, ADMIN, passwords.get(ADMIN));
        this.kafka = EmbeddedKafka.builder().saslSsl(tls).start();
        for (final String user : users) {
            kafka.createScramUser(user, passwords.get(user));
        }
    }

    EmbeddedKafka kafka() {
        return kafka;
    }

    /** Client settings of {@code user}: bootstrap, SASL_SSL, its SCRAM credentials, the trust store. */
    Properties properties(final String user) {
        final Properties p = new Properties();
        p.putAll(tls.clientConfig(user, passwords.get(user)));
        p.put("bootstrap.servers", kafka.bootstrapServers());
        return p;
    }

    /** {@link #properties} as the file a {@code --config} option reads. */
    Path config(final String user) throws IOException {
        return write(user + ".properties", properties(user));
    }

    Path write(final String name, final Properties p) throws IOException {
        final Path file = dir.resolve(name);
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "fabric-twin client settings");
        }
        return file;
    }

    /** Every password and the store password: what no log line may contain. */
    List<String> secrets() {
        return Stream.concat(passwords.values().stream(), Stream.of(storePassword)).toList();
    }

    @Override
    public void close() {
        kafka.close();
    }

    private static String secret() {
        return "pw-" + UUID.randomUUID();
    }
}
