package dev.fabrictwin.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.JsonShapes;
import dev.fabrictwin.twin.fuzz.Mutants;
import dev.fabrictwin.twin.telemetry.Sample;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import org.junit.jupiter.api.Test;

/**
 * What every format adapter must do, run on its real fixtures (test resources under {@code refdata/}): parse them
 * into samples; survive random, truncated and hostile input without throwing; count every unit it reads and
 * never lose one silently (each unit yields samples or a rejection with a reason). The fuzz properties feed it
 * mutated fixtures and structure-aware JSON ({@code dev.fabrictwin.twin.fuzz}). Subclasses add value
 * assertions for their format.
 */
@AddLifecycleHook(FuzzTries.class)
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

    @Test
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
        assertAccounted(fuzz(input));
    }

    @Property(tries = 100)
    void shouldNeverThrowOnTruncatedFixturesAndKeepWhatItCannotRead(@ForAll @IntRange(min = 0, max = 10_000) final int cut,
                                                                   @ForAll @IntRange(min = 0, max = 20) final int which)
            throws IOException {
        final List<Path> files = fixtures();
        final byte[] full = Files.readAllBytes(files.get(which % files.size()));
        final byte[] truncated = Arrays.copyOf(full, Math.min(full.length, (int) ((long) cut * full.length / 10_000)));

        final CollectingSink sink = fuzz(truncated);
        assertAccounted(sink);
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
        final byte[] edited = (text.substring(0, pos) + insert + text.substring(pos)).getBytes(StandardCharsets.UTF_8);

        assertAccounted(fuzz(edited));
    }

    /** Fixtures flipped, cut, spliced, duplicated, with hostile numbers and nesting (docs/development.md, Fuzzing). */
    @Tag("fuzz")
    @Property(tries = 300)
    void shouldAccountForEveryMutatedFixture(@ForAll("mutatedFixtures") final byte[] input) {
        assertAccounted(fuzz(input));
    }

    @Tag("fuzz")
    @Property(tries = 100)
    void shouldAccountForEveryStructuredJsonDocument(@ForAll("structuredDocuments") final String input) {
        final byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        assertAccounted(fuzz(bytes));
    }

    @Tag("fuzz")
    @Example
    void shouldRejectAHugeLineAndDeepNestingWithAReason() throws IOException {
        final String firstLine = Files.readString(fixtures().get(0)).strip().lines().findFirst().orElse("x");
        for (final byte[] input : List.of(Mutants.longLine(firstLine, 24 << 20),
                Mutants.nested("[", 100_000).getBytes(StandardCharsets.UTF_8),
                Mutants.nested("{\"a\":", 100_000).getBytes(StandardCharsets.UTF_8))) {
            final CollectingSink sink = fuzz(input);
            assertAccounted(sink);
            assertThat(sink.rejections).as("a huge line or a deep nest is rejected").isNotEmpty();
        }
    }

    @Tag("fuzz")
    @Example
    void shouldAccountForAFixtureRepeatedPastTheRecordLimit() throws IOException {
        final CollectingSink sink = fuzz(Mutants.longLine(Files.readString(fixtures().get(0)) + "\n", 4 << 20));
        assertAccounted(sink);
    }

    @Tag("fuzz")
    @Example
    void shouldAccountForEveryFixtureRepeatedTwice() throws IOException {
        for (final Path fixture : fixtures()) {
            final byte[] once = Files.readAllBytes(fixture);
            final byte[] twice = Arrays.copyOf(once, once.length * 2 + 1);
            twice[once.length] = '\n';
            System.arraycopy(once, 0, twice, once.length + 1, once.length);
            assertAccounted(fuzz(twice));
        }
    }

    /** The fuzz runs' context: as {@link #context()}, but a timestamp past tomorrow (year 3000, say) is rejected. */
    protected ParseContext fuzzContext() {
        final ParseContext c = context();
        return new ParseContext(c.device(), c.port(), c.defaultTimestamp(), c.clock(), Duration.ofDays(1), c.maxPast(), c.maxRecordBytes());
    }

    /** Parses through the adapter's entry point, as {@code ingest} calls it; any exception fails the property. */
    protected CollectingSink fuzz(final byte[] input) {
        final CollectingSink sink = new CollectingSink();
        try {
            adapter().parse(new ByteArrayInputStream(input), fuzzContext(), sink);
        } catch (IOException e) {
            throw new AssertionError("a byte array cannot fail to read", e);
        }
        return sink;
    }

    /**
     * The ingest invariant: every sample passes the validator; every rejection comes from a counted unit, with a
     * reason, a one-line message, its raw bytes (capped) and this format; counted units are never dropped
     * silently: no samples means at least one rejection. (A unit may give several rejections: a scrape's bad
     * lines are rejected one by one while its good lines still become samples.)
     */
    protected void assertAccounted(final CollectingSink sink) {
        final ParseContext ctx = fuzzContext();
        for (final Sample s : sink.samples) {
            assertThatCode(() -> SampleValidator.validate(s, ctx)).as("sample %s", s).doesNotThrowAnyException();
        }
        assertThat(sink.rejections).allSatisfy(r -> {
            assertThat(r.reason()).isNotNull();
            assertThat(r.raw().length).isLessThanOrEqualTo(ctx.maxRecordBytes());
            assertThat(r.message()).isNotBlank().doesNotContain("\n");
            assertThat(r.format()).isEqualTo(adapter().format());
            assertThat(r.location()).isNotBlank();
        });
        if (!sink.rejections.isEmpty()) {
            assertThat(sink.records).as("a rejection belongs to a counted unit").isPositive();
        }
        if (sink.records > 0 && sink.samples.isEmpty()) {
            assertThat(sink.rejections).as("units counted and no samples: they must be rejected, not dropped").isNotEmpty();
        }
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(2_000);
    }

    @Provide
    Arbitrary<byte[]> mutatedFixtures() {
        return Mutants.of(fuzzSeeds().stream().map(AdapterContract::bytes).toList());
    }

    @Provide
    Arbitrary<String> structuredDocuments() {
        return JsonShapes.documents(fuzzSeeds().stream().map(p -> new String(bytes(p), StandardCharsets.UTF_8)).toList());
    }

    /** What the fuzz properties mutate: the fixtures, unless a format has more real input than clean fixtures. */
    protected List<Path> fuzzSeeds() {
        return fixtures();
    }

    private static byte[] bytes(final Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> hostile() {
        return Arbitraries.of("-1", "NaN", "\"-5\"", "1e999", "99999999999999999999999", "\u0000", "{", "}", "[", "\"",
            "\n", ":", "=", ",", "\t", "=-3i", " NaN", "+Inf", "null", "{\"a\":", "\\", "18446744073709551616");
    }
}
