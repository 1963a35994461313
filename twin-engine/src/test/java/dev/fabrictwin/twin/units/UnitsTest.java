package dev.fabrictwin.twin.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {

    @ParameterizedTest
    @CsvSource({"250ms,250", "1s,1000", "1.5s,1500", "5m,300000", "2h,7200000", "300,300000", "300s,300000"})
    void shouldParseDurationsInEveryUnitTheDesignNames(final String text, final long millis) {
        assertThat(Units.parseDuration(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @CsvSource({"8GB,8000000000", "1GiB,1073741824", "64KB,64000", "100B,100", "2MiB,2097152", "1.5GB,1500000000"})
    void shouldTellDecimalFromBinaryByteUnits(final String text, final long bytes) {
        assertThat(Units.parseBytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource({"400G,400e9", "100G,100e9", "25Gbps,25e9", "800M,800e6", "1.6T,1.6e12"})
    void shouldReadLinkSpeedsAsDecimalBitsPerSecond(final String text, final double bps) {
        assertThat(Units.parseBitRate(text)).isEqualTo(bps);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "10 parsecs", "-5s", "1e3s"})
    void shouldRejectNonsenseDurationsWithAOneLineReason(final String text) {
        assertThatThrownBy(() -> Units.parseDuration(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("invalid duration '" + text + "'")
            .hasMessageNotContaining("\n");
    }

    @Test
    void shouldEscapeAControlCharacterInARejectedValueSoTheErrorStaysOneLine() {
        // found by ScenarioFuzzProperties: a duration that was a newline broke the one-line error
        assertThatThrownBy(() -> Units.parseDuration("\n"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("invalid duration '\\u000a'")
            .hasMessageNotContaining("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"8XB", "GB", "8G", "1.5Gb"})
    void shouldRejectUnknownSizeUnits(final String text) {
        assertThatThrownBy(() -> Units.parseBytes(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("byte size");
    }

    @ParameterizedTest
    @ValueSource(strings = {"8XB", "GB", "0G", "-100G"})
    void shouldRejectUnknownOrNonPositiveSpeeds(final String text) {
        assertThatThrownBy(() -> Units.parseBitRate(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("link speed");
    }

    @ParameterizedTest
    @CsvSource({"400e9,400G", "2.5e9,2.5G", "800e6,800M", "1e12,1T"})
    void shouldFormatBitRatesBackToTheirShortForm(final double bps, final String text) {
        assertThat(Units.formatBitRate(bps)).isEqualTo(text);
    }
}
