package dev.fabrictwin.analyzer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureIntervalTest {

    @Test
    void shouldReadTheMedianGapBetweenAPortsSamplesWhateverThePollPhases(@TempDir final Path dir) throws Exception {
        final List<String> lines = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            // two routers polled at their own phases every 10 s, one poll of r2 late by 4 s
            lines.add(String.format("{\"ts\": %d, \"device\": \"r1\", \"port\": \"Hu0/0/0/1\", \"counters\": {}}", 9_900 + k * 10_000L));
            lines.add(String.format("{\"ts\":%d,\"device\":\"r2\",\"port\":\"Eth1/1\",\"counters\":{}}", 1_000 + k * 10_000L + (k == 7 ? 4_000 : 0)));
        }
        lines.add("not a sample");
        assertThat(CaptureInterval.infer(Files.write(dir.resolve("s.jsonl"), lines))).hasValue(10_000);
    }

    @Test
    void shouldSayNothingWhenNoPortIsSampledTwice(@TempDir final Path dir) throws Exception {
        assertThat(CaptureInterval.infer(Files.write(dir.resolve("s.jsonl"),
            List.of("{\"ts\":1,\"device\":\"a\",\"port\":\"p\"}", "{\"ts\":2,\"device\":\"b\",\"port\":\"p\"}")))).isEmpty();
    }
}
