package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class FabricTwinCliTest {

    /** Output of one launcher run. */
    record Run(int exitCode, String out, String err) {
        String[] errLines() {
            return err.isEmpty() ? new String[0] : err.split("\\R");
        }
    }

    static Run run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FabricTwin.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        final int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void shouldListTheImplementedCommandsInHelpAndExitZero() {
        final Run run = run("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: fabric-twin", "Commands:", "broker", "Exit codes: 0 ok, 1 failure, 2 bad usage");
    }

    @Test
    void shouldRejectAnUnknownCommandWithOneLineAndExitTwo() {
        final Run run = run("frobnicate");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly(
            "fabric-twin: unknown command 'frobnicate' (see 'fabric-twin --help')");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void shouldRejectAMissingCommandWithOneLineAndExitTwo() {
        final Run run = run();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("fabric-twin: missing COMMAND (see 'fabric-twin --help')");
    }

    @Test
    void shouldRejectABadOptionValueWithOneLineAndExitTwo() {
        final Run run = run("broker", "--duration", "soon");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).startsWith("fabric-twin broker: ").contains("invalid duration 'soon'");
    }

    @Test
    void shouldReportATakenPortInOneLineAndExitTwo() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            final Run run = run("broker", "--port", Integer.toString(taken.getLocalPort()));

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.errLines()).containsExactly("fabric-twin broker: port " + taken.getLocalPort()
                + " on 127.0.0.1 is already in use; choose another port, or 0 for any free port");
        }
    }

    @Test
    void shouldRunARealBrokerForTheRequestedDurationThenStop() {
        final Run run = run("broker", "--port", "0", "--duration", "1s");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("Kafka 4\\.\\d+\\.\\d+ \\(KRaft, 1 broker\\) ready at 127\\.0\\.0\\.1:\\d+ in \\d+\\.\\d s")
            .contains("(deleted on exit)", "Broker stopped.");
    }

    @Test
    void shouldPrintOurVersionAndTheBundledKafkaVersion() {
        final Run run = run("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("fabric-twin", "Kafka 4.3.1");
    }
}
