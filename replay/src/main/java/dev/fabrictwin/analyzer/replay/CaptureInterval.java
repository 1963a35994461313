package dev.fabrictwin.analyzer.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The poll interval of a capture, read from its first samples: the median gap between consecutive samples of the same
 * port, rounded to the millisecond. A median, so one late poll or a collector's jitter does not move it; the analysis
 * ticks at it, as {@code analyze --sample-interval} does.
 */
public final class CaptureInterval {

    /** Lines read at most: enough gaps on any fabric, and the capture's head is all a user waits for. */
    static final int MAX_LINES = 200_000;
    static final int MAX_GAPS = 20_000;

    private CaptureInterval() {
    }

    /** The interval in ms, or empty when no port was sampled twice in the capture's head. */
    public static OptionalLong infer(final Path samples) throws IOException {
        final Map<String, Long> last = new HashMap<>();
        final long[] gaps = new long[MAX_GAPS];
        int n = 0;
        try (BufferedReader reader = Files.newBufferedReader(samples, StandardCharsets.UTF_8)) {
            String line;
            for (int read = 0; read < MAX_LINES && n < MAX_GAPS && (line = reader.readLine()) != null; read++) {
                final String device = Replay.deviceOf(line);
                final String port = Replay.portOf(line);
                final long ts = tsOf(line);
                if (device == null || port == null || ts < 0) {
                    continue;
                }
                final Long before = last.put(device + "/" + port, ts);
                if (before != null && ts > before) {
                    gaps[n++] = ts - before;
                }
            }
        }
        if (n == 0) {
            return OptionalLong.empty();
        }
        Arrays.sort(gaps, 0, n);
        return OptionalLong.of(gaps[n / 2]);
    }

    /** The sample's {@code ts} (epoch ms), or -1 when it has none this cheap read can see. */
    static long tsOf(final String line) {
        final int at = line.indexOf("\"ts\"");
        if (at < 0) {
            return -1;
        }
        int i = line.indexOf(':', at) + 1;
        while (i > 0 && i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        long v = 0;
        int digits = 0;
        for (; i > 0 && i < line.length() && Character.isDigit(line.charAt(i)) && digits < 18; i++, digits++) {
            v = v * 10 + (line.charAt(i) - '0');
        }
        return digits == 0 ? -1 : v;
    }
}
