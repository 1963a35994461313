package dev.fabrictwin.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import dev.fabrictwin.twin.telemetry.Sample;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * What every format adapter must do, run on its real fixtures (test resources under {@code refdata/}): parse them
 * into samples; survive random, truncated and hostile input without throwing; count every unit it reads and
 * never lose one silently (each unit yields samples or a rejection with a reason). Subclasses add value
 * assertions for their format.
 */
public abstract class AdapterContract {

    /** A fixed clock after every fixture's timestamps, so time-window checks are deterministic. */
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    protected abstract FormatAdapter adapter();

    /** Real fixture files for this format (from {@link #refdata(String)}). */
    protected abstract List<Path> fixtures();

    /** Context for the fixtures: a device name where the format has none, and no time window for old captures. */
    protected ParseContext context() {
        return ParseContext.defaults(CLOCK).withDevice("dut").withDefaultTimestamp(1_700_000_000_000L).withoutTimeWindow();
    }

    /**
     * A real fixture, kept in this module's test resources under {@code refdata/} with its provenance and licence
     * ({@code refdata/MANIFEST.tsv}). A missing file fails loudly: these tests must not pass by finding nothing.
     */
    public static Path refdata(final String relative) {
        final URL url = AdapterContract.class.getResource("/refdata/" + relative);
        if (url == null) {
            throw new IllegalStateException("real fixture refdata/" + relative + " is not on the test classpath"
                + " (telemetry-ingest/src/test/resources/refdata)");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("real fixture refdata/" + relative + " has no file path: " + url, e);
        }
    }

    protected CollectingSink parse(final byte[] input) {
        final CollectingSink sink = new CollectingSink();
        try {
            adapter().parse(new ByteArrayInputStream(input), context(), sink);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return sink;
    }

    protected CollectingSink parse(final Path fixture) throws IOException {
        return parse(Files.readAllBytes(fixture));
    }

    @org.junit.jupiter.api.Test
    void shouldTurnEveryRealFixtureIntoSamplesWithoutRejections() throws IOException {
        assertThat(fixtures()).isNotEmpty();
        for (final Path fixture : fixtures()) {
            final CollectingSink sink = parse(fixture);
            assertThat(sink.samples).as("samples from %s", fixture).isNotEmpty();
            assertThat(sink.rejections).as("rejections from %s", fixture).isEmpty();
            assertThat(sink.records).as("records counted in %s", fixture).isPositive();
            for (final Sample s : sink.samples) {
                assertThat(s.device()).isNotBlank();
                assertThat(s.port()).isNotBlank();
                assertThat(s.source()).isNotBlank();
            }
        }
    }

    @Property(tries = 200)
    void shouldNeverThrowOnRandomBytes(@ForAll("noise") final byte[] input) {
        assertThatCode(() -> parse(input)).doesNotThrowAnyException();
        final CollectingSink sink = parse(input);
        assertThat(sink.rejections).allSatisfy(r -> {
            assertThat(r.reason()).isNotNull();
            assertThat(r.raw()).isNotNull();
        });
    }

    @Property(tries = 100)
    void shouldNeverThrowOnTruncatedFixturesAndKeepWhatItCannotRead(@ForAll @IntRange(min = 0, max = 10_000) final int cut,
                                                                   @ForAll @IntRange(min = 0, max = 20) final int which)
            throws IOException {
        final List<Path> files = fixtures();
        final byte[] full = Files.readAllBytes(files.get(which % files.size()));
        final byte[] truncated = Arrays.copyOf(full, Math.min(full.length, (int) ((long) cut * full.length / 10_000)));

        final CollectingSink sink = parse(truncated);
        if (truncated.length > 0 && sink.samples.isEmpty()) {
            assertThat(sink.rejections).as("a non-empty input with no samples must be rejected, not dropped").isNotEmpty();
        }
    }

    @Property(tries = 100)
    void shouldNeverThrowOnHostileEdits(@ForAll @IntRange(min = 0, max = 20) final int which,
                                        @ForAll("hostile") final String insert,
                                        @ForAll @IntRange(min = 0, max = 10_000) final int at) throws IOException {
        final List<Path> files = fixtures();
        final String text = Files.readString(files.get(which % files.size()));
        final int pos = (int) ((long) at * text.length() / 10_000);
        final String edited = text.substring(0, pos) + insert + text.substring(pos);

        assertThatCode(() -> parse(edited.getBytes(java.nio.charset.StandardCharsets.UTF_8))).doesNotThrowAnyException();
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(2_000);
    }

    @Provide
    Arbitrary<String> hostile() {
        return Arbitraries.of("-1", "NaN", "\"-5\"", "1e999", "99999999999999999999999", "\u0000", "{", "}", "[", "\"",
            "\n", ":", "=", ",", "\t", "=-3i", " NaN", "+Inf", "null", "{\"a\":", "\\", "18446744073709551616");
    }
}
