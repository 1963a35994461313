package dev.fabrictwin.contract.sample;

import java.util.Map;

import dev.fabrictwin.twin.fabric.Quoted;
import dev.fabrictwin.twin.telemetry.FrozenMap;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The one limit on the names a canonical sample carries (docs/contracts.md): its device, port and source, and every
 * counter and gauge name, are at most {@value #MAX_LENGTH} characters. The codec ({@link SampleJson}) and every
 * ingest format (its validator) hold a sample to it with the same reason, {@link RejectReason#NAME_TOO_LONG}, and the
 * same message naming the field, its length and its start ({@code counter name 'cccc…' (100000 chars) is longer than
 * the 256 characters allowed}), so a 100,000-character name is refused alike whatever it came in.
 * Real names are far shorter: Linux interface names are at most 15 characters, ethtool statistics 31, InfiniBand
 * node descriptions 64; the longest name the ingest fixtures give is 60 (infiniband_exporter's
 * {@code infiniband_switch_port_excessive_buffer_overrun_errors_total}).
 */
public final class SampleNames {

    /** Longest device, port, source, counter or gauge name, in characters. */
    public static final int MAX_LENGTH = 256;

    private SampleNames() {
    }

    /** Throws NAME_TOO_LONG for the first of the sample's names longer than {@link #MAX_LENGTH}. */
    public static void check(final Sample s) throws SampleFormatException {
        check("device", s.device());
        check("port", s.port());
        check("source", s.source());
        checkKeys("counter name", s.counters());
        checkKeys("gauge name", s.gauges());
    }

    /**
     * A sample's maps are FrozenMaps (its constructor makes them so): their keys are scanned in place, since
     * iterating a keySet makes an entry per key: 4 % of the canonical parse's time in a profile, most of what it lost.
     */
    private static void checkKeys(final String field, final Map<String, ?> values) throws SampleFormatException {
        if (values instanceof FrozenMap<?> frozen) {
            final String tooLong = frozen.keyLongerThan(MAX_LENGTH);
            if (tooLong != null) {
                check(field, tooLong);
            }
            return;
        }
        for (final String name : values.keySet()) {
            check(field, name);
        }
    }

    /** Throws NAME_TOO_LONG if {@code name} is longer than {@link #MAX_LENGTH}; {@code field} says what it names. */
    public static void check(final String field, final String name) throws SampleFormatException {
        if (name.length() > MAX_LENGTH) {
            throw new SampleFormatException(RejectReason.NAME_TOO_LONG, field + " " + Quoted.of(name) + " is longer than the "
                + MAX_LENGTH + " characters allowed");
        }
    }

    /** NAME_TOO_LONG for a name the reader stopped reading after {@code read} characters. */
    static SampleFormatException tooLong(final String field, final int read) {
        return new SampleFormatException(RejectReason.NAME_TOO_LONG, field + " of more than " + read
            + " characters is longer than the " + MAX_LENGTH + " characters allowed");
    }
}
