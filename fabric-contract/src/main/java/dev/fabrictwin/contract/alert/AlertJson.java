package dev.fabrictwin.contract.alert;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.kafka.common.serialization.Serde;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.JsonSerdes;

/** Alert ↔ JSON, the form of {@code fabric.alerts} values and of {@code replay}'s output lines. */
public final class AlertJson {

    /** Every alert field is written, null included (a root cause's {@code causedBy} is null); entities omit absent parts. */
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Serde<Alert> SERDE = JsonSerdes.of(AlertJson::write, AlertJson::read);

    private AlertJson() {
    }

    public static byte[] write(final Alert alert) {
        try {
            return JSON.writeValueAsBytes(alert);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String writeString(final Alert alert) {
        try {
            return JSON.writeValueAsString(alert);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Alert read(final byte[] json) {
        try {
            return JSON.readValue(json, Alert.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
