package dev.fabrictwin.cli.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** Bench inputs for the formats beyond canonical: JSON key → (format, bytes, samples they yield). */
final class FormatInputs {

    record Input(String format, byte[] bytes, long samples) {
    }

    private FormatInputs() {
    }

    static Map<String, Input> all() {
        return new LinkedHashMap<>();
    }
}
