package dev.fabrictwin.cli.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Utils;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.topology.PortIntervalSerde;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * What the rates tasks committed to the lanes, read back (the analyzers keep their repartition records: purging is
 * off in the chaos runs) and held against the samples: each port's intervals must run from one of its samples to the
 * next, one after another. A stretch with no committed interval loses that port's traffic in the analysis (a false
 * loss on its link, where it was the receiver: the restart bug, seen as 5-6 s of one partition's ports
 * missing); an overlap counts it twice. One sent twice is dropped there (and sent again by design after a restart
 * mid-batch): not a fault.
 */
final class LaneIntervals {

    private LaneIntervals() {
    }

    /**
     * The sample partitions (of {@code partitions}) of the ports named in {@code faults}: each port's device is its
     * record key, placed by the producer's default partitioner.
     */
    static Set<Integer> partitionsOf(final List<String> faults, final int partitions) {
        final Set<Integer> out = new TreeSet<>();
        for (final String fault : faults) {
            final int slash = fault.indexOf('/');
            if (slash > 0 && fault.indexOf(':') > slash) {
                final byte[] device = fault.substring(0, slash).getBytes(StandardCharsets.UTF_8);
                out.add(Utils.toPositive(Utils.murmur2(device)) % partitions);
            }
        }
        return out;
    }

    /** What is wrong with the committed intervals (a count line, then the first few cases); empty when nothing is. */
    static List<String> faults(final Properties client, final String applicationId,
                                 final List<Sample> samples) throws Exception {
        final Map<String, TreeSet<Long>> sampled = new HashMap<>();
        samples.forEach(x -> sampled.computeIfAbsent(x.device() + "/" + x.port(), k -> new TreeSet<>()).add(x.ts()));
        final Map<String, List<PortInterval>> byPort = new HashMap<>();
        // where each interval was read: lane topic and offset (a gap over consecutive offsets was never sent; one over
        // a run of offsets was in transactions that aborted)
        final Map<PortInterval, String> where = new IdentityHashMap<>();
        try (Admin admin = Admin.create(client)) {
            final List<String> lanes = admin.listTopics().names().get().stream()
                .filter(t -> t.startsWith(applicationId + "-analyzer-intervals") && t.endsWith("-repartition")).toList();
            CommittedRecords.read(client, lanes, Duration.ofMinutes(2), r -> {
                final List<PortInterval> batch = PortIntervalSerde.listSerde().deserializer().deserialize(r.topic(), r.value());
                if (batch != null) {
                    for (final PortInterval i : batch) {
                        byPort.computeIfAbsent(i.device() + "/" + i.port(), k -> new ArrayList<>()).add(i);
                        where.put(i, r.topic().substring(r.topic().indexOf("-lane") + 1) + "@" + r.offset());
                    }
                }
            });
        }
        final List<String> out = new ArrayList<>();
        int overlapping = 0;
        int twice = 0;
        int spanning = 0;
        int missing = 0;
        long read = 0;
        for (final Map.Entry<String, List<PortInterval>> e : new TreeMap<>(byPort).entrySet()) {
            PortInterval last = null;
            for (final PortInterval i : e.getValue()) { // in the order the analysis read them
                read++;
                if (last != null && i.t0() > last.t1() && missing++ < 10) {
                    out.add(String.format("%s: nothing committed for [%d, %d] (%d samples between; read at %s, then %s)", e.getKey(),
                        last.t1(), i.t0(), sampled.getOrDefault(e.getKey(), new TreeSet<>()).subSet(last.t1(), false, i.t0(), true).size(),
                        where.get(last), where.get(i)));
                }
                if (last != null && i.t1() <= last.t1()) {
                    twice++;
                } else if (last != null && i.t0() < last.t1()) {
                    if (overlapping++ < 10) {
                        out.add(String.format("%s: [%d, %d] overlaps [%d, %d] (tx_packets %d and %d)", e.getKey(), i.t0(), i.t1(),
                            last.t0(), last.t1(), i.increases().get("tx_packets"), last.increases().get("tx_packets")));
                    }
                }
                final TreeSet<Long> times = sampled.get(e.getKey());
                if (times != null && times.subSet(i.t0(), false, i.t1(), false).size() > 0 && spanning++ < 10) {
                    out.add(String.format("%s: [%d, %d] spans %d samples between its ends (read at %s, the one before at %s)", e.getKey(),
                        i.t0(), i.t1(), times.subSet(i.t0(), false, i.t1(), false).size(), where.get(i), last == null ? "-" : where.get(last)));
                }
                if (last == null || i.t1() > last.t1()) {
                    last = i;
                }
            }
        }
        // one sent again is by design (a rates task restarted mid-batch sends its pending interval again) and the
        // analysis drops it: reported, not a fault
        System.out.printf("lanes: %d intervals of %d ports read back, %d sent again%n", read, byPort.size(), twice);
        if (overlapping > 0 || spanning > 0 || missing > 0) {
            out.add(0, missing + " gaps no sample explains or lost intervals, " + overlapping + " intervals overlap one already sent, " + twice + " were sent again, " + spanning
                + " span samples that had intervals of their own");
        }
        return out;
    }
}
