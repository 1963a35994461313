package dev.fabrictwin.ingest.scrape;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.support.Rounds;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.prometheus.PrometheusTextAdapter;

/**
 * {@code ingest --scrape}: pulls Prometheus text exposition from every target each round, all targets at once
 * with a per-request timeout, then parses the answers one after another on the calling thread (so the sink needs
 * no locking) with {@link PrometheusTextAdapter}, the target's device and the round's start as the samples' time.
 * A target that fails (refused, timed out, non-200) is counted and logged on its state change; the others go on.
 */
public final class Scraper {

    private static final String ACCEPT = "text/plain;version=0.0.4;q=1,*/*;q=0.1";

    private final List<ScrapeTarget> targets;
    private final HttpClient http;
    private final Duration timeout;
    private final ParseContext context;
    private final Clock clock;
    private final Consumer<String> log;
    private final TargetHealth health = new TargetHealth();
    private final PrometheusTextAdapter adapter = new PrometheusTextAdapter();
    private long rounds;

    public Scraper(final List<ScrapeTarget> targets, final Duration timeout, final ParseContext context, final Clock clock,
                   final Consumer<String> log) {
        this.targets = List.copyOf(targets);
        this.timeout = timeout;
        this.context = context;
        this.clock = clock;
        this.log = log;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    private record Answer(ScrapeTarget target, byte[] body, String problem) {
    }

    /** One round: every target scraped once, its samples delivered to {@code sink}. */
    public void scrapeOnce(final IngestSink sink) {
        final long scrapeTime = clock.millis();
        final List<CompletableFuture<Answer>> pending = new ArrayList<>();
        for (final ScrapeTarget t : targets) {
            pending.add(fetch(t));
        }
        for (final CompletableFuture<Answer> f : pending) {
            final Answer a = f.join();
            if (a.problem() != null) {
                health.failed(a.target(), a.problem()).ifPresent(log);
                continue;
            }
            health.succeeded(a.target()).ifPresent(log);
            try {
                adapter.parse(new ByteArrayInputStream(a.body()),
                    context.withDevice(a.target().device()).withDefaultTimestamp(scrapeTime), sink);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a byte array cannot fail to read
            }
        }
        rounds++;
    }

    /**
     * Scrapes every {@code interval} (measured from each round's start, so a slow round does not shift the
     * schedule by more than itself) until {@code maxRounds} rounds are done (0: until interrupted).
     */
    public void run(final IngestSink sink, final Duration interval, final long maxRounds) throws InterruptedException {
        Rounds.every(interval, maxRounds, () -> scrapeOnce(sink));
    }

    private CompletableFuture<Answer> fetch(final ScrapeTarget t) {
        final HttpRequest request = HttpRequest.newBuilder(t.url()).timeout(timeout).header("Accept", ACCEPT).GET().build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
            .thenApply(r -> r.statusCode() == 200 ? new Answer(t, r.body(), null)
                : new Answer(t, null, "HTTP " + r.statusCode()))
            .exceptionally(e -> new Answer(t, null, describe(e)));
    }

    private static String describe(final Throwable e) {
        final Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        final String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    public long rounds() {
        return rounds;
    }

    TargetHealth health() {
        return health;
    }

    /** {@code scrapes: 20 rounds of 2 targets, failed: 3 (http://a:9100/metrics 3)}. */
    public String summary() {
        final StringBuilder s = new StringBuilder("scrapes: " + rounds + " rounds of " + targets.size() + " targets, failed: "
            + health.failures());
        if (health.failures() > 0) {
            final List<String> parts = new ArrayList<>();
            targets.forEach(t -> {
                final Long n = health.failuresByTarget().get(t);
                if (n != null) {
                    parts.add(t.url() + " " + n);
                }
            });
            s.append(" (").append(String.join(", ", parts)).append(')');
        }
        return s.toString();
    }
}
