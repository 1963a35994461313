package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import dev.fabrictwin.contract.Topics;
import picocli.CommandLine.Option;

/** Options every Kafka-facing command shares: where the brokers are, client settings, topic prefix. */
final class KafkaOptions {

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT[,...]", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--config", paramLabel = "FILE",
        description = "Kafka client properties (security.protocol, sasl.*, ssl.*, ...), applied to every client.")
    Path config;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "",
        description = "Prefix for every topic name, e.g. 'lab.' gives lab.telemetry.samples (default: none).")
    String topicPrefix;

    /** Whether Kafka was asked for at all (commands that can also write a file publish only then). */
    boolean given() {
        return bootstrap != null || config != null;
    }

    Topics topics() {
        return new Topics(topicPrefix);
    }

    /** Client properties: the --config file, then --bootstrap on top. */
    Properties clientConfig() {
        final Properties p = new Properties();
        if (config != null) {
            if (!Files.isRegularFile(config)) {
                throw new UsageException("Kafka config file not found: " + config);
            }
            try (Reader r = Files.newBufferedReader(config)) {
                p.load(r);
            } catch (IOException e) {
                throw new UsageException("cannot read Kafka config " + config + ": " + e.getMessage());
            }
        }
        if (bootstrap != null) {
            p.put("bootstrap.servers", bootstrap);
        }
        if (!p.containsKey("bootstrap.servers")) {
            throw new UsageException("no Kafka given: use --bootstrap HOST:PORT (or bootstrap.servers in --config)");
        }
        return p;
    }
}
