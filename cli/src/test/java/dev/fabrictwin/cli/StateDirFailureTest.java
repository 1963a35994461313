package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;

/**
 * A state directory Kafka Streams cannot write is one line naming it, exit 1: before, analyze printed a
 * ProcessorStateException ("base state directory … doesn't exist and couldn't be created") on two lines, and on a full
 * disk a stack trace and "IOException: No space left on device" naming no directory. A file where the directory should
 * be stands in for a disk that cannot be written (a full one cannot be made here); ThreadFailuresTest maps a full disk
 * deep in Kafka's and RocksDB's cause chains.
 */
class StateDirFailureTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    @TempDir
    Path dir;

    @Test
    void shouldSayInOneLineThatAnalyzeCannotWriteItsStateDirectory() throws Exception {
        final Path file = Files.writeString(dir.resolve("not-a-directory"), "x");
        final Path stateDir = file.resolve("state");

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("analyze", "--bootstrap", KAFKA.bootstrapServers(),
            "--topic-prefix", KAFKA.uniqueTopic("statedir") + ".", "--metrics-port", "0", "--state-dir", stateDir.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).containsExactly("fabric-twin analyze: the state directory " + stateDir + " cannot be "
            + "written (" + stateDir + ": Not a directory): give --state-dir (or state.dir in "
            + "--config) a directory this user can write");
    }
}
