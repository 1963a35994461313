package dev.fabrictwin.twin.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.stats.Quantiles;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * One packet-level reference run (docs/fidelity.md): a 2-tier fabric of 128 hosts on 8 leaves, 16 or 8 spines
 * (1:1 or 2:1), every link 100 Gb/s, one NIC per host, and a traffic matrix whose flows all start at t = 0.
 * {@code referenceMs} is the packet-level makespan of seed 1 and {@code seedSpreadMs} its ECMP seeds 1–5 (one
 * value when the case has no ECMP choice to make).
 */
public record ReferenceCase(String name, Workload workload, long bytes, int spines, double referenceMs,
                            List<Double> seedSpreadMs) {

    public static final int HOSTS = 128;
    public static final int LEAVES = 8;
    public static final double LINK_BPS = 100e9;
    private static final long MIB = 1L << 20;

    /** The traffic of a case (host indices 0..127; host h hangs off leaf h div 16). */
    public enum Workload {
        /** host i → host (i+1) mod 128: one flow of S each; only 8 cross a leaf. */
        RING,
        /** host i → host (i+16) mod 128: every flow leaves its leaf. */
        RINGX,
        /** every host sends S/128 to each of the 127 others. */
        ALL_TO_ALL,
        /** hosts 1..15 → host 0, S each (same leaf). */
        INCAST
    }

    public ReferenceCase {
        seedSpreadMs = List.copyOf(seedSpreadMs);
    }

    /** The measured cases (ms, 100 Gb/s); the figures come from htsim runs, see docs/fidelity.md. */
    public static List<ReferenceCase> all() {
        return List.of(
            new ReferenceCase("ring 64M", Workload.RING, 64 * MIB, 16, 5.545, List.of(5.545)),
            new ReferenceCase("ring 256M", Workload.RING, 256 * MIB, 16, 22.155, List.of(22.155)),
            new ReferenceCase("ringx 64M 1:1", Workload.RINGX, 64 * MIB, 16, 21.987,
                List.of(21.99, 22.03, 22.10, 16.62, 21.90)),
            new ReferenceCase("ringx 64M 2:1", Workload.RINGX, 64 * MIB, 8, 38.513,
                List.of(38.51, 38.51, 27.64, 22.15, 27.45)),
            new ReferenceCase("a2a 64M 1:1", Workload.ALL_TO_ALL, 64 * MIB, 16, 7.835,
                List.of(7.83, 6.74, 7.29, 6.74, 7.97)),
            new ReferenceCase("incast 16M", Workload.INCAST, 16 * MIB, 16, 20.452, List.of(20.452)));
    }

    public Fabric fabric() {
        return new SpineLeaf(spines, LEAVES, HOSTS / LEAVES, 1, LINK_BPS, LINK_BPS, Technology.ROCE_V2)
            .build(name.replace(' ', '-').replace(':', 'x').toLowerCase(Locale.ROOT));
    }

    /** The case's flows, named as on {@link #fabric()} ({@code host-<i>/nic0}). */
    public List<Transfer> transfers() {
        final List<Transfer> out = new ArrayList<>();
        switch (workload) {
            case RING -> {
                for (int i = 0; i < HOSTS; i++) {
                    out.add(new Transfer(nic(i), nic((i + 1) % HOSTS), bytes));
                }
            }
            case RINGX -> {
                for (int i = 0; i < HOSTS; i++) {
                    out.add(new Transfer(nic(i), nic((i + HOSTS / LEAVES) % HOSTS), bytes));
                }
            }
            case ALL_TO_ALL -> {
                for (int a = 0; a < HOSTS; a++) {
                    for (int b = 0; b < HOSTS; b++) {
                        if (a != b) {
                            out.add(new Transfer(nic(a), nic(b), (double) bytes / HOSTS));
                        }
                    }
                }
            }
            case INCAST -> {
                for (int i = 1; i < HOSTS / LEAVES; i++) {
                    out.add(new Transfer(nic(i), nic(0), bytes));
                }
            }
            default -> throw new IllegalStateException("unhandled workload " + workload);
        }
        return out;
    }

    /** Median of the reference's seed spread (Harrell–Davis, see {@link #median}). */
    public double referenceMedianMs() {
        return median(seedSpreadMs);
    }

    /** The Harrell–Davis median ({@link Quantiles#median}): the estimate both the reference and the twin use. */
    static double median(final List<Double> values) {
        return Quantiles.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static PortRef nic(final int host) {
        return new PortRef("host-" + host, "nic0");
    }
}
