package dev.fabrictwin.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Bench inputs for the formats beyond canonical, shaped like the real fixtures in {@code shared/refdata}:
 * JSON key → (format, bytes, samples they must yield).
 */
final class FormatInputs {

    record Input(String format, byte[] bytes, long samples) {
    }

    private static final int MESSAGES = 200_000;

    private FormatInputs() {
    }

    static Map<String, Input> all() {
        final Map<String, Input> inputs = new LinkedHashMap<>();
        inputs.put("parseGnmicPerSec", new Input("gnmic", gnmicEvents(MESSAGES), MESSAGES));
        inputs.put("parsePrometheusPerSec", new Input("prometheus", prometheusScrapes(MESSAGES / 64, 64), MESSAGES / 64 * 64));
        return inputs;
    }

    /** gnmic {@code event} output, as in refdata's event_strings.L74-92.json: one message per port and time. */
    static byte[] gnmicEvents(final int messages) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(messages * 520);
        for (int i = 0; i < messages; i++) {
            final long ns = 1_607_291_271_894_072_397L + (i / 64) * 1_000_000_000L;
            out.writeBytes(String.format(Locale.ROOT, """
                {"name":"default","timestamp":%d,"tags":{"interface_name":"ethernet-1/%d","source":"leaf-%d:57400",\
                "subscription-name":"default"},"values":{"carrier-transitions":"1","in-error-packets":"0",\
                "in-fcs-error-packets":"0","in-octets":"%d","in-unicast-packets":"%d","out-error-packets":"0",\
                "out-octets":"%d","out-unicast-packets":"%d"}}
                """, ns, i % 32 + 1, (i / 32) % 2, 65_382_630L + i * 1000L, 107_154L + i, 64_721_394L + i * 990L,
                105_876L + i).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /**
     * node_exporter text exposition as in refdata's e2e output: {@code scrapes} scrapes (each closed by
     * {@code # EOF}) of {@code ports} network devices, ten series per port.
     */
    static byte[] prometheusScrapes(final int scrapes, final int ports) {
        final String[][] families = {
            {"node_network_receive_bytes_total", "counter"}, {"node_network_transmit_bytes_total", "counter"},
            {"node_network_receive_packets_total", "counter"}, {"node_network_transmit_packets_total", "counter"},
            {"node_network_receive_drop_total", "counter"}, {"node_network_transmit_drop_total", "counter"},
            {"node_network_receive_errs_total", "counter"}, {"node_network_transmit_errs_total", "counter"},
            {"node_network_speed_bytes", "gauge"}, {"node_network_up", "gauge"}};
        final StringBuilder b = new StringBuilder(scrapes * ports * 10 * 64);
        for (int s = 0; s < scrapes; s++) {
            for (final String[] f : families) {
                b.append("# HELP ").append(f[0]).append(" Network device statistic.\n");
                b.append("# TYPE ").append(f[0]).append(' ').append(f[1]).append('\n');
                for (int p = 0; p < ports; p++) {
                    final double value = f[0].endsWith("speed_bytes") ? 5e10 : f[0].endsWith("_up") ? 1
                        : 1.0e9 + s * 1.0e6 + p * 1000;
                    b.append(f[0]).append("{device=\"eth").append(p).append("\"} ").append(value).append('\n');
                }
            }
            b.append("# EOF\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
