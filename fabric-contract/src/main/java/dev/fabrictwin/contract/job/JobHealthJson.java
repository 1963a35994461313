package dev.fabrictwin.contract.job;

import org.apache.kafka.common.serialization.Serde;

import dev.fabrictwin.contract.JsonSerdes;

/** JobHealth ↔ JSON, the form of {@code fabric.job-health} values and of {@code replay --job-health} lines. */
public final class JobHealthJson {

    public static final Serde<JobHealth> SERDE = JsonSerdes.of(JobHealthJson::write, JobHealthJson::read);

    private JobHealthJson() {
    }

    public static byte[] write(final JobHealth health) {
        return JsonSerdes.write(health);
    }

    public static JobHealth read(final byte[] json) {
        return JsonSerdes.read(json, JobHealth.class);
    }
}
