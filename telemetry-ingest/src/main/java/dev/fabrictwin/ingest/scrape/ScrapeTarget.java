package dev.fabrictwin.ingest.scrape;

import java.net.URI;
import java.util.Objects;

/**
 * One exporter to scrape: its URL and the device its ports belong to (exposition names no host; by default the
 * URL's host, so {@code http://leaf-1:9100/metrics} is device {@code leaf-1}).
 */
public record ScrapeTarget(URI url, String device) {

    public ScrapeTarget {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(device, "device");
    }

    /** A target whose device is the URL's host. */
    public static ScrapeTarget of(final URI url) {
        return new ScrapeTarget(url, url.getHost());
    }
}
