package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;

/** {@code simulate --bootstrap}: every record it sends is checked. */
class SimulateToKafkaTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    /** A topology the broker refuses (over its topic's record limit) used to pass unnoticed: exit 0, no topology. */
    @Test
    void aRefusedTopologyFailsTheCommandWithOneLineNamingTheTopic() throws Exception {
        final String prefix = KAFKA.uniqueTopic("refused") + ".";
        final Properties admin = new Properties();
        admin.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (Admin a = Admin.create(admin)) {
            a.createTopics(List.of(new NewTopic(prefix + "fabric.topology", 1, (short) 1)
                .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", "1024")))).all().get();
        }

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("simulate", "--scenario", "../scenarios/pfc-storm-small.yaml",
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString()
            .startsWith("fabric-twin simulate: Kafka refused a record on " + prefix + "fabric.topology (key ")
            .contains("RecordTooLargeException");
    }
}
