package dev.fabrictwin.kafka.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A client listener secured with SASL/SCRAM-SHA-512 over TLS: the server's PKCS12 key store, the trust store clients
 * verify it with (one password for both), and the super user, whose SCRAM credential is written at storage format
 * time so that it can log in as soon as the broker is up.
 */
public record SaslSslListener(Path keyStore, Path trustStore, String storePassword, String superUser,
                              String superUserPassword) {

    public static final String MECHANISM = "SCRAM-SHA-512";

    /** Client settings (no bootstrap.servers) for {@code user}: what a {@code --config} file carries. */
    public Map<String, String> clientConfig(final String user, final String password) {
        final Map<String, String> c = new LinkedHashMap<>();
        c.put("security.protocol", "SASL_SSL");
        c.put("sasl.mechanism", MECHANISM);
        c.put("sasl.jaas.config", jaas(user, password));
        c.put("ssl.truststore.location", trustStore.toString());
        c.put("ssl.truststore.password", storePassword);
        c.put("ssl.truststore.type", "PKCS12");
        return c;
    }

    /** Broker settings of the listener named {@code listener} (lower case in per-listener keys). */
    Map<String, String> brokerConfig(final String listener) {
        final String prefix = "listener.name." + listener.toLowerCase(Locale.ROOT) + ".";
        final Map<String, String> c = new LinkedHashMap<>();
        c.put("sasl.enabled.mechanisms", MECHANISM);
        c.put(prefix + MECHANISM.toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        c.put(prefix + "ssl.keystore.location", keyStore.toString());
        c.put(prefix + "ssl.keystore.password", storePassword);
        c.put(prefix + "ssl.key.password", storePassword);
        c.put(prefix + "ssl.keystore.type", "PKCS12");
        // Only the client listener is secured; the internal and controller listeners are PLAINTEXT on 127.0.0.1, so
        // their principal, ANONYMOUS, has to be a super user for brokers and controller to talk.
        c.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        c.put("allow.everyone.if.no.acl.found", "false");
        c.put("super.users", "User:" + superUser + ";User:ANONYMOUS");
        return c;
    }

    /** The storage formatter's argument creating the super user's credential. */
    String scramArgument() {
        return MECHANISM + "=[name=" + superUser + ",password=" + superUserPassword + "]";
    }

    static String jaas(final String user, final String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
            + "\" password=\"" + password + "\";";
    }

    @Override
    public String toString() { // records print every component: keep the passwords out of logs
        return "SaslSslListener[superUser=" + superUser + ", keyStore=" + keyStore + "]";
    }
}
