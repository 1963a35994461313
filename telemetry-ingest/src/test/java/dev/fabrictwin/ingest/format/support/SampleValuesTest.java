package dev.fabrictwin.ingest.format.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;

class SampleValuesTest {

    private static final CounterMapping GNMIC = CounterMapping.forFormat("gnmic");
    private static final CounterMapping INFLUX = CounterMapping.forFormat("influx");

    private static SampleValues values(final CounterMapping mapping) {
        return new SampleValues(mapping, "", InputValue::string);
    }

    /** Puts {@code source, value} pairs in order and resolves fallbacks. */
    @SafeVarargs
    private static SampleValues filled(final CounterMapping mapping, final Map.Entry<String, InputValue>... values)
            throws SampleFormatException {
        final SampleValues v = values(mapping);
        for (final Map.Entry<String, InputValue> e : values) {
            v.put(e.getKey(), e.getValue());
        }
        v.finish();
        return v;
    }

    private static Map.Entry<String, InputValue> integer(final String source, final String digits) {
        return Map.entry(source, InputValue.integer(digits));
    }

    @Test
    void shouldUseAFallbackOnlyWhenNoOtherValueTakesItsName() throws SampleFormatException {
        assertThat(filled(GNMIC, integer("in-unicast-pkts", "5")).counters()).containsExactly(Map.entry("rx_packets", 5L));
        // the fallback comes first and still yields
        assertThat(filled(GNMIC, integer("in-unicast-pkts", "5"), integer("in-pkts", "7")).counters())
            .containsEntry("rx_packets", 7L).containsEntry("in-unicast-pkts", 5L).hasSize(2);
    }

    @Test
    void shouldGiveAClashedNameToTheFirstValueAndKeepTheOtherUnscaled() throws SampleFormatException {
        // port_xmit_data is tx_bytes in 4-byte words; the source name tx_bytes is the clashed name itself: taken
        assertThat(filled(INFLUX, integer("port_xmit_data", "10"), integer("tx_bytes", "3")).counters())
            .containsEntry("tx_bytes", 40L).hasSize(1);
        assertThat(filled(INFLUX, integer("tx_bytes", "3"), integer("port_xmit_data", "10")).counters())
            .containsEntry("tx_bytes", 3L).containsEntry("port_xmit_data", 10L).hasSize(2);
    }

    @Test
    void shouldKeepAFractionUnderABarePerPriorityNameButRejectItWithAPriority() throws SampleFormatException {
        final SampleValues v = values(GNMIC);
        v.put("tx_pfc_pause", InputValue.number("1.5", 1.5));
        assertThat(v.gauges()).containsEntry("tx_pfc_pause", 1.5);

        assertThatThrownBy(() -> values(GNMIC).put("rx_pfc_pause.3", InputValue.number("1.5", 1.5)))
            .isInstanceOfSatisfying(SampleFormatException.class, e -> assertThat(e.reason()).isEqualTo(RejectReason.NON_NUMERIC));
    }

    @Test
    void shouldReadStringsAgainOnlyUnderCanonicalNames() throws SampleFormatException {
        final List<String> reread = new ArrayList<>();
        final SampleValues v = new SampleValues(GNMIC, "", t -> {
            reread.add(t);
            return t.strip().matches("\\d+") ? InputValue.integer(t.strip()) : InputValue.string(t);
        });
        v.put("in-octets", InputValue.string(" 12 "));
        v.put("description", InputValue.string("uplink"));
        v.put("oper-status", InputValue.string("UP"));
        v.finish();
        assertThat(reread).containsExactly(" 12 ", "UP");
        assertThat(v.counters()).containsEntry("rx_bytes", 12L).doesNotContainKey("description");
        assertThat(v.gauges()).containsEntry("oper_up", 1.0);
    }

    @Test
    void shouldNameValuesWithTheFormatsNounInMessages() {
        assertThatThrownBy(() -> new SampleValues(INFLUX, "field ", InputValue::string).put("x", InputValue.invalid("lots")))
            .isInstanceOfSatisfying(SampleFormatException.class, e -> {
                assertThat(e.reason()).isEqualTo(RejectReason.NON_NUMERIC);
                assertThat(e.getMessage()).isEqualTo("field x is not a number: 'lots'");
            });
        assertThatThrownBy(() -> values(GNMIC).put("in-octets", InputValue.number("NaN", Double.NaN)))
            .isInstanceOfSatisfying(SampleFormatException.class, e -> {
                assertThat(e.reason()).isEqualTo(RejectReason.NOT_FINITE);
                assertThat(e.getMessage()).isEqualTo("in-octets is not finite: NaN");
            });
    }

    @Test
    void shouldReadOperStateAndSpeedStringsWithOrWithoutAModulePrefix() throws SampleFormatException {
        final SampleValues v = values(GNMIC);
        v.put("oper-status", InputValue.string("openconfig-interfaces:UP"));
        v.put("port-speed", InputValue.string("openconfig-if-ethernet:SPEED_400GB"));
        v.finish();
        assertThat(v.gauges()).containsEntry("oper_up", 1.0).containsEntry("speed_bps", 400e9);
    }
}
