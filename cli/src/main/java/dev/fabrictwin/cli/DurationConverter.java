package dev.fabrictwin.cli;

import java.time.Duration;

import dev.fabrictwin.twin.units.Units;
import picocli.CommandLine.ITypeConverter;

/** Durations on the command line take the scenario file's units: {@code 250ms 90s 5m 2h}. */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(final String value) {
        return Units.parseDuration(value);
    }
}
