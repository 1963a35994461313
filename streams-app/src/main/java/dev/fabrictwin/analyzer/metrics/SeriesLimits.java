package dev.fabrictwin.analyzer.metrics;

/**
 * How many devices and ports get series of their own on {@code /metrics} (docs/analyzer.md, Metrics): per-device
 * series for at most {@code devices} devices (those with an open alert first, then the largest residuals); per-port
 * series for the ports with an open alert on those devices and the {@code ports} largest residuals. Tier and pod
 * aggregates are always there, so the scrape grows with these numbers, not with the fabric.
 */
public record SeriesLimits(int devices, int ports) {

    /** Devices with series of their own by default: every device of a fabric up to ~200 devices (a 1k-GPU pod). */
    public static final int DEFAULT_DEVICES = 200;
    /** Ports listed by residual by default, besides ports with an open alert. */
    public static final int DEFAULT_PORTS = 20;
    /** No bound: every device has its series (what {@code /metrics} did before the bound). */
    public static final SeriesLimits UNBOUNDED = new SeriesLimits(Integer.MAX_VALUE, DEFAULT_PORTS);

    public SeriesLimits {
        if (devices < 0 || ports < 0) {
            throw new IllegalArgumentException("series limits must be >= 0, were devices " + devices + ", ports " + ports);
        }
    }

    public static SeriesLimits defaults() {
        return new SeriesLimits(DEFAULT_DEVICES, DEFAULT_PORTS);
    }

    /** The default device bound with {@code ports} ports listed by residual. */
    public static SeriesLimits ports(final int ports) {
        return new SeriesLimits(DEFAULT_DEVICES, ports);
    }
}
