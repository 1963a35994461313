package dev.fabrictwin.ingest.format.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.twin.fabric.Quoted;

/**
 * The keys one sample repeats (a counter, a series, a field named twice), and the one rule every format applies to
 * them: the first value is kept, each repeat is left out unread, counted as a dropped value ({@value #DROPPED}) and
 * named in a warning. Values the mapping file drops are dropped before this (they are no keys of the sample); in
 * gnmic, gnmi-protojson and telegraf-json messages any key the JSON repeats counts ({@link KeepFirstJson}), since
 * the JSON is read before it is known which keys are values.
 *
 * <p>Why not reject the sample: real tools print a name twice in one output. vmxnet3's {@code ethtool -S} prints
 * {@code giant hdr} twice in every Tx queue block ({@code refdata/ethq-ethtool-S/vmxnet3.ethtool-S.txt}), and
 * node_exporter had to stop exposing such names (prometheus/node_exporter#2187); a driver's quirk must not blind its
 * port for good. Why the first: ethtool, Prometheus and sysfs input always kept it, and it is the value a reader
 * that stops at the first match sees. Why counted and named: which value is right is unknown, so the operator is
 * told ({@code ingest: warning: duplicate key 'rx_bytes': ...}, {@code values dropped: 1 (duplicate-key 1)}).
 */
public final class RepeatedKeys implements Consumer<String> {

    /** The reason a repeated key's value is counted under in the summary. */
    public static final String DROPPED = "duplicate-key";

    private final List<String> keys = new ArrayList<>(0);

    /** One repeat of {@code key}. */
    @Override
    public void accept(final String key) {
        keys.add(key);
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The repeated keys, in input order. */
    public List<String> keys() {
        return List.copyOf(keys);
    }

    /** Forgets what was collected (the unit it belonged to was rejected, or reported). */
    public void clear() {
        keys.clear();
    }

    /** Reports each repeat as a dropped value and a warning naming its key, then forgets them: once the sample went out. */
    public void report(final IngestSink sink) {
        report(sink, keys);
        keys.clear();
    }

    /** Reports each of {@code repeatedKeys} as a dropped value and a warning naming it. */
    public static void report(final IngestSink sink, final List<String> repeatedKeys) {
        for (final String key : repeatedKeys) {
            sink.dropped(DROPPED);
            sink.warn(warning(key));
        }
    }

    /** The warning for a repeat of {@code key}: the same text for the same key, so the summary says it once with its count. */
    public static String warning(final String key) {
        return "duplicate key " + Quoted.of(key) + ": the first value is kept, the repeat left out";
    }
}
