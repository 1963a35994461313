package dev.fabrictwin.twin.scenario;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.fabrictwin.twin.fabric.FabricSpec;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.workload.FlowSpec;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.PinSpec;

/**
 * A scenario file (docs/contracts.md): the fabric, the declared jobs, the injected faults, and the clock
 * (simulated time starts at {@code epoch}; every timestamp is epoch milliseconds on that clock) and the transport's
 * reaction to congestion; explicit {@code flows} that belong to no job, and {@code pins} that fix flows' paths.
 */
public record Scenario(String name, long seed, Duration duration, Duration sampleInterval, Instant epoch,
                       FabricSpec fabric, Routing routing, List<JobSpec> jobs, List<FaultSpec> faults,
                       TelemetryProfile telemetry, Transport transport, List<FlowSpec> flows, List<PinSpec> pins) {

    public static final Instant DEFAULT_EPOCH = Instant.parse("2025-01-01T00:00:00Z");
    /** The seed of a scenario that names none: also its ECMP hash seed unless {@code routing} says otherwise. */
    public static final long DEFAULT_SEED = 1;

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(sampleInterval, "sampleInterval");
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(transport, "transport");
        jobs = List.copyOf(jobs);
        faults = List.copyOf(faults);
        flows = List.copyOf(flows);
        pins = List.copyOf(pins);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("duration must be > 0");
        }
        if (sampleInterval.isZero() || sampleInterval.isNegative()) {
            throw new IllegalArgumentException("sampleInterval must be > 0");
        }
    }

    /** The same scenario with another routing (e.g. another hash seed). */
    public Scenario withRouting(final Routing other) {
        return new Scenario(name, seed, duration, sampleInterval, epoch, fabric, other, jobs, faults, telemetry,
            transport, flows, pins);
    }

    /** The same scenario with other faults (a what-if's, in place of the declared ones). */
    public Scenario withFaults(final List<FaultSpec> other) {
        return new Scenario(name, seed, duration, sampleInterval, epoch, fabric, routing, jobs, other, telemetry,
            transport, flows, pins);
    }

    /** The same scenario with other pins (paths learned elsewhere, e.g. by the analyzer). */
    public Scenario withPins(final List<PinSpec> other) {
        return new Scenario(name, seed, duration, sampleInterval, epoch, fabric, routing, jobs, faults, telemetry,
            transport, flows, other);
    }

    /** The same scenario with other telemetry realism (e.g. a randomized reality's draw). */
    public Scenario withTelemetry(final TelemetryProfile other) {
        return new Scenario(name, seed, duration, sampleInterval, epoch, fabric, routing, jobs, faults, other,
            transport, flows, pins);
    }

    /** Epoch milliseconds of a scenario time. */
    public long epochMillis(final Duration at) {
        return epoch.toEpochMilli() + at.toMillis();
    }

    public long epochMillis(final double seconds) {
        return epoch.toEpochMilli() + Math.round(seconds * 1000);
    }
}
