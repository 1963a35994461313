package dev.fabrictwin.contract.job;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.kafka.common.serialization.Serde;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.JsonSerdes;

/** JobHealth ↔ JSON, the form of {@code fabric.job-health} values and of {@code replay --job-health} lines. */
public final class JobHealthJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Serde<JobHealth> SERDE = JsonSerdes.of(JobHealthJson::write, JobHealthJson::read);

    private JobHealthJson() {
    }

    public static byte[] write(final JobHealth health) {
        try {
            return JSON.writeValueAsBytes(health);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JobHealth read(final byte[] json) {
        try {
            return JSON.readValue(json, JobHealth.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
