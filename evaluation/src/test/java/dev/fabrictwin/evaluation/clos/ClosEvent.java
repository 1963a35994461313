package dev.fabrictwin.evaluation.clos;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One row of a set's {@code events.csv} ({@code timestamp,event,duration,device,interface,comment}; the timestamp in
 * epoch seconds): what the lab did and when, the labels the analysis is judged against.
 */
record ClosEvent(long tsMs, String event, String device, String iface, String comment) {

    /** The harness's own steps (traffic on and off, telemetry cleared and collected, configs pushed): no fault. */
    private static final Set<String> HOUSEKEEPING = Set.of("ixchariot_traffic", "ixchariot_traffic_stopped",
        "clear_telemetry", "collect_telemetry", "apply_device_configs");

    /** An event the lab inserted into the network (a shutdown, a BFD break, an ECMP change ...). */
    boolean labelled() {
        return !HOUSEKEEPING.contains(event);
    }

    static List<ClosEvent> read(final String csv) {
        final List<ClosEvent> out = new ArrayList<>();
        final String[] lines = csv.split("\\R");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            final List<String> f = fields(lines[i]);
            if (f.size() < 2) {
                throw new IllegalArgumentException("events.csv line " + (i + 1) + ": expected timestamp,event,...: " + lines[i]);
            }
            out.add(new ClosEvent(Math.round(Double.parseDouble(f.get(0)) * 1000), f.get(1), field(f, 3), field(f, 4),
                field(f, 5)));
        }
        return out;
    }

    private static String field(final List<String> f, final int i) {
        return i < f.size() ? f.get(i) : "";
    }

    /** Comma-separated, a field in double quotes may hold commas ({@code "Edit subscriptions dr03,leaf8"}). */
    private static List<String> fields(final String line) {
        final List<String> out = new ArrayList<>();
        final StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(c);
            }
        }
        out.add(f.toString());
        return out;
    }
}
