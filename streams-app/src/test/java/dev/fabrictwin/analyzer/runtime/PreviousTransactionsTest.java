package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreviousTransactionsTest {

    @TempDir
    Path stateDir;

    private Properties config() {
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "fabric-twin-analyzer");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return p;
    }

    @Test
    void shouldFindNoPreviousRunOnAFirstStart() {
        assertThat(PreviousTransactions.previousProcessId(config())).isNull();
    }

    @Test
    void shouldReadTheProcessIdKafkaStreamsKeptForThisInstance() throws Exception {
        Files.createDirectories(stateDir.resolve("fabric-twin-analyzer"));
        Files.writeString(stateDir.resolve("fabric-twin-analyzer").resolve(PreviousTransactions.PROCESS_FILE),
            "{\"processId\":\"33e09d4b-c2be-49b4-874e-ebe1f68c74aa\"}");

        assertThat(PreviousTransactions.previousProcessId(config())).isEqualTo("33e09d4b-c2be-49b4-874e-ebe1f68c74aa");
    }

    @Test
    void shouldNameEachStreamThreadsTransactionalIdAsExactlyOnceV2Does() {
        assertThat(PreviousTransactions.transactionalIds("app", "p", 3)).startsWith("app-p-1", "app-p-2", "app-p-3")
            .hasSize(3 + PreviousTransactions.EXTRA_THREADS);
    }

    @Test
    void shouldLeaveAnUnreadableFileToTheTransactionTimeout() throws Exception {
        Files.createDirectories(stateDir.resolve("fabric-twin-analyzer"));
        Files.writeString(stateDir.resolve("fabric-twin-analyzer").resolve(PreviousTransactions.PROCESS_FILE), "{not json");

        assertThat(PreviousTransactions.previousProcessId(config())).isNull();
    }
}
