package dev.fabrictwin.evaluation.clos;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.twin.telemetry.Sample;

/**
 * One IOS-XR router's model-driven telemetry, as the cisco-ie/telemetry dataset keeps it (one CSV per sensor path,
 * a row per interface per collection, the router's name in {@code Producer}), to canonical samples: one per
 * {@code Cisco-IOS-XR-infra-statsd-oper} latest generic-counters row, its counters as recorded, {@code oper_up} and
 * {@code speed_bps} from the {@code Cisco-IOS-XR-pfi-im-cmd-oper} interface-brief of the same interface polled
 * nearest in time (within half the lab's 10 s cadence, else the last one before).
 */
final class IosXrSamples {

    /** What the samples say they came from. */
    static final String SOURCE = "ios-xr-mdt";
    /** Generic-counters leaf to canonical counter ({@code carrier-transitions}: the port's link flaps). */
    private static final Map<String, String> COUNTERS = orderedMap(
        "bytes-received", "rx_bytes", "bytes-sent", "tx_bytes", "packets-received", "rx_packets",
        "packets-sent", "tx_packets", "input-drops", "rx_drops", "output-drops", "tx_drops", "crc-errors", "fcs_errors",
        "carrier-transitions", "link_flaps");
    /** A brief this close to a counters row describes the same collection. */
    private static final long SAME_POLL_MS = 5_000;
    private static final String UP = "im-state-up";

    private IosXrSamples() {
    }

    /** The samples of one router: the text of its generic-counters CSV and of its interface-briefs CSV (may be empty). */
    static List<Sample> convert(final String genericCounters, final String interfaceBriefs) {
        final Map<String, TreeMap<Long, Brief>> briefs = new HashMap<>();
        for (final Map<String, String> row : rows(interfaceBriefs)) {
            final String state = row.getOrDefault("state", "");
            final String line = row.getOrDefault("line-state", state);
            final long bandwidthKbps = number(row.get("bandwidth"), 0);
            briefs.computeIfAbsent(row.get("interface-name"), p -> new TreeMap<>())
                .put(ts(row), new Brief(UP.equals(state) && UP.equals(line), bandwidthKbps * 1000));
        }
        final List<Sample> out = new ArrayList<>();
        for (final Map<String, String> row : rows(genericCounters)) {
            final String port = row.get("interface-name");
            final String device = row.get("Producer");
            if (port == null || port.isBlank() || device == null || device.isBlank()) {
                continue;
            }
            final long ts = ts(row);
            final Map<String, Long> counters = new LinkedHashMap<>();
            COUNTERS.forEach((leaf, name) -> {
                final String v = row.get(leaf);
                if (v != null && !v.isBlank()) {
                    counters.put(name, Long.parseUnsignedLong(v.strip()));
                }
            });
            final Map<String, Double> gauges = new LinkedHashMap<>();
            final Brief brief = nearest(briefs.get(port), ts);
            if (brief != null) {
                gauges.put("oper_up", brief.up() ? 1.0 : 0.0);
                if (brief.speedBps() > 0) {
                    gauges.put("speed_bps", (double) brief.speedBps());
                }
            }
            out.add(new Sample(ts, device, port, SOURCE, counters, gauges));
        }
        return out;
    }

    private record Brief(boolean up, long speedBps) {
    }

    private static Brief nearest(final TreeMap<Long, Brief> briefs, final long ts) {
        if (briefs == null) {
            return null;
        }
        final Map.Entry<Long, Brief> before = briefs.floorEntry(ts);
        final Map.Entry<Long, Brief> after = briefs.ceilingEntry(ts);
        if (after != null && after.getKey() - ts <= SAME_POLL_MS
            && (before == null || after.getKey() - ts < ts - before.getKey())) {
            return after.getValue();
        }
        return before == null ? null : before.getValue();
    }

    /** The rows of one of the dataset's CSVs (a header, then data rows between blank lines), by column name. */
    static List<Map<String, String>> rows(final String csv) {
        final List<Map<String, String>> out = new ArrayList<>();
        String[] header = null;
        for (final String line : csv.split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            final String[] f = line.split(",", -1);
            if (header == null) {
                header = f;
                continue;
            }
            final Map<String, String> row = new HashMap<>();
            for (int i = 0; i < Math.min(f.length, header.length); i++) {
                row.put(header[i], f[i]);
            }
            out.add(row);
        }
        return out;
    }

    /** The row's time, in its first (unnamed) column: {@code 2020-01-22 17:37:29.878000+00:00}. */
    private static long ts(final Map<String, String> row) {
        return OffsetDateTime.parse(row.get("").strip().replace(' ', 'T')).toInstant().toEpochMilli();
    }

    private static long number(final String v, final long fallback) {
        return v == null || v.isBlank() ? fallback : (long) Double.parseDouble(v.strip());
    }

    private static Map<String, String> orderedMap(final String... pairs) {
        final Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }
}
