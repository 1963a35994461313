package dev.fabrictwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.AppInfoParser;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin broker}: a real KRaft Kafka on 127.0.0.1 for local runs, until Ctrl-C. */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Run a real Apache Kafka broker (KRaft mode, inside this JVM) on 127.0.0.1 until Ctrl-C.",
        "Point other commands at it with --bootstrap 127.0.0.1:PORT. Data lives in a temporary "
            + "directory that is deleted on exit unless --data-dir is given.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin broker                      # 127.0.0.1:9092 until Ctrl-C",
        "  fabric-twin broker --port 0 --brokers 3 # three brokers on free ports",
        "  fabric-twin broker --duration 10m       # stop by itself after ten minutes",
    })
final class BrokerCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", defaultValue = "9092", paramLabel = "PORT",
        description = "Port of the first broker on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--brokers", defaultValue = "1", paramLabel = "N",
        description = "Number of brokers, 1 to 5; the first is also the KRaft controller (default: ${DEFAULT-VALUE}).")
    private int brokers;

    @Option(names = "--data-dir", paramLabel = "DIR",
        description = "Keep the broker's data here instead of a temporary directory.")
    private Path dataDir;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Stop after this long (e.g. 90s, 10m) instead of waiting for Ctrl-C.")
    private Duration duration;

    @Override
    public Integer call() throws InterruptedException {
        final EmbeddedKafka.Builder builder = EmbeddedKafka.builder().brokers(brokers).port(port);
        if (dataDir != null) {
            builder.dataDir(dataDir);
        }
        final PrintWriter out = spec.commandLine().getOut();
        final EmbeddedKafka kafka = builder.start();
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread onSignal = new Thread(() -> {
            kafka.close();
            stopped.countDown();
        }, "fabric-twin-broker-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);

        out.printf(Locale.ROOT, "Kafka %s (KRaft, %d broker%s) ready at %s in %.1f s; data in %s%s%n",
            AppInfoParser.getVersion(), kafka.brokerCount(), kafka.brokerCount() == 1 ? "" : "s",
            kafka.bootstrapServers(), kafka.startTime().toMillis() / 1000.0, kafka.dataDir(),
            dataDir == null ? " (deleted on exit)" : "");
        out.println(duration == null ? "Press Ctrl-C to stop." : "Stopping after " + duration.toSeconds() + " s.");
        out.flush();

        if (duration == null) {
            stopped.await();
        } else if (!stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS)) {
            Runtime.getRuntime().removeShutdownHook(onSignal);
            kafka.close();
            out.println("Broker stopped.");
            out.flush();
        }
        return FabricTwin.EXIT_OK;
    }
}
