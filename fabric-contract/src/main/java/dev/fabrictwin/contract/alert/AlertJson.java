package dev.fabrictwin.contract.alert;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.serialization.Serde;

import dev.fabrictwin.contract.JsonSerdes;

/**
 * Alert ↔ JSON, the form of {@code fabric.alerts} values and of {@code replay}'s output lines. Every alert field is
 * written, null included (a root cause's {@code causedBy} is null); entities omit absent parts.
 */
public final class AlertJson {

    public static final Serde<Alert> SERDE = JsonSerdes.of(AlertJson::write, AlertJson::read);

    private AlertJson() {
    }

    public static byte[] write(final Alert alert) {
        return JsonSerdes.write(alert);
    }

    public static String writeString(final Alert alert) {
        return new String(write(alert), StandardCharsets.UTF_8);
    }

    public static Alert read(final byte[] json) {
        return JsonSerdes.read(json, Alert.class);
    }
}
