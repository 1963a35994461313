package dev.fabrictwin.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.fabrictwin.ingest.format.CanonicalAdapter;
import dev.fabrictwin.ingest.format.FormatAdapter;

/** The {@code --format} names and their adapters. */
public final class Formats {

    private static final Map<String, Supplier<FormatAdapter>> ADAPTERS = new LinkedHashMap<>();

    static {
        ADAPTERS.put("canonical", CanonicalAdapter::new);
        ADAPTERS.put("gnmic", dev.fabrictwin.ingest.format.gnmi.GnmicAdapter::new);
        ADAPTERS.put("gnmi-protojson", dev.fabrictwin.ingest.format.gnmi.GnmiProtoJsonAdapter::new);
        ADAPTERS.put("prometheus", dev.fabrictwin.ingest.format.prometheus.PrometheusTextAdapter::new);
        ADAPTERS.put("ethtool", dev.fabrictwin.ingest.format.ethtool.EthtoolStatsAdapter::new);
        ADAPTERS.put("sysfs", dev.fabrictwin.ingest.format.sysfs.SysfsInfinibandAdapter::new);
        ADAPTERS.put("rdma", dev.fabrictwin.ingest.format.sysfs.RdmaStatisticAdapter::new);
        ADAPTERS.put("sonic", dev.fabrictwin.ingest.format.sonic.SonicCountersDbAdapter::new);
        ADAPTERS.put("perfquery", dev.fabrictwin.ingest.format.perfquery.PerfqueryAdapter::new);
        ADAPTERS.put("influx", dev.fabrictwin.ingest.format.influx.InfluxLineAdapter::new);
        ADAPTERS.put("telegraf-json", dev.fabrictwin.ingest.format.influx.TelegrafJsonAdapter::new);
    }

    private Formats() {
    }

    public static FormatAdapter adapter(final String format) {
        final Supplier<FormatAdapter> s = ADAPTERS.get(format);
        if (s == null) {
            throw new IllegalArgumentException("unknown format '" + format + "' (expected one of " + String.join(", ", names()) + ")");
        }
        return s.get();
    }

    public static Iterable<String> names() {
        return ADAPTERS.keySet();
    }
}
