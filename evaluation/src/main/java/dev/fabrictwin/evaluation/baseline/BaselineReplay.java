package dev.fabrictwin.evaluation.baseline;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.fabric.Fabric;

/**
 * Runs the {@link ThresholdBaseline} over a capture ({@code samples.jsonl}, one canonical sample per line, in
 * delivery order), as {@code replay} runs the analyzer. Lines that are not a canonical sample are skipped and
 * counted (the analyzer would dead-letter them), never fatal.
 */
public final class BaselineReplay {

    /**
     * What one run read and produced.
     *
     * @param alerts  every alert record, in the order produced
     * @param samples samples judged
     * @param skipped non-blank lines that were not a canonical sample
     */
    public record Result(List<Alert> alerts, long samples, long skipped) {
        public Result {
            alerts = List.copyOf(alerts);
        }
    }

    private BaselineReplay() {
    }

    /** Every alert record the baseline produces on the capture. */
    public static List<Alert> run(final Fabric fabric, final ThresholdRules rules, final long intervalMs,
                                  final Path samplesJsonl) throws IOException {
        return replay(fabric, rules, intervalMs, samplesJsonl).alerts();
    }

    /** As {@link #run}, with the counts of samples judged and lines skipped. */
    public static Result replay(final Fabric fabric, final ThresholdRules rules, final long intervalMs,
                                final Path samplesJsonl) throws IOException {
        final ThresholdBaseline baseline = new ThresholdBaseline(fabric, rules, intervalMs);
        final List<Alert> alerts = new ArrayList<>();
        long samples = 0;
        long skipped = 0;
        try (BufferedReader reader = Files.newBufferedReader(samplesJsonl, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    alerts.addAll(baseline.accept(SampleJson.read(line.getBytes(StandardCharsets.UTF_8))));
                    samples++;
                } catch (SampleFormatException e) {
                    skipped++;
                }
            }
        }
        alerts.addAll(baseline.finish());
        return new Result(alerts, samples, skipped);
    }
}
