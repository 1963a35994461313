package dev.fabrictwin.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.fabrictwin.ingest.format.CanonicalAdapter;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ethtool.EthtoolStatsAdapter;
import dev.fabrictwin.ingest.format.gnmi.GnmiProtoJsonAdapter;
import dev.fabrictwin.ingest.format.gnmi.GnmicAdapter;
import dev.fabrictwin.ingest.format.influx.InfluxLineAdapter;
import dev.fabrictwin.ingest.format.influx.TelegrafJsonAdapter;
import dev.fabrictwin.ingest.format.perfquery.PerfqueryAdapter;
import dev.fabrictwin.ingest.format.prometheus.PrometheusTextAdapter;
import dev.fabrictwin.ingest.format.sonic.SonicCountersDbAdapter;
import dev.fabrictwin.ingest.format.sysfs.RdmaStatisticAdapter;
import dev.fabrictwin.ingest.format.sysfs.SysfsInfinibandAdapter;

/** The {@code --format} names and their adapters. */
public final class Formats {

    private static final Map<String, Supplier<FormatAdapter>> ADAPTERS = new LinkedHashMap<>();

    static {
        ADAPTERS.put("canonical", CanonicalAdapter::new);
        ADAPTERS.put("gnmic", GnmicAdapter::new);
        ADAPTERS.put("gnmi-protojson", GnmiProtoJsonAdapter::new);
        ADAPTERS.put("prometheus", PrometheusTextAdapter::new);
        ADAPTERS.put("ethtool", EthtoolStatsAdapter::new);
        ADAPTERS.put("sysfs", SysfsInfinibandAdapter::new);
        ADAPTERS.put("rdma", RdmaStatisticAdapter::new);
        ADAPTERS.put("sonic", SonicCountersDbAdapter::new);
        ADAPTERS.put("perfquery", PerfqueryAdapter::new);
        ADAPTERS.put("influx", InfluxLineAdapter::new);
        ADAPTERS.put("telegraf-json", TelegrafJsonAdapter::new);
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
