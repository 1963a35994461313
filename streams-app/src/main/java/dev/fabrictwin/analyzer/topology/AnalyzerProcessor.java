package dev.fabrictwin.analyzer.topology;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * Drives one {@link FabricAnalyzer} per fabric from the repartitioned intervals. The twin replica is built from
 * the global topology and jobs stores when the first interval arrives and rebuilt when the topology changes; jobs
 * that start or end are followed by the replica at event time (no rebuild, no state lost). Open alerts are kept in
 * the {@value AnalyzerTopology#OPEN_ALERTS_STORE} store (changelogged, so with exactly-once a restarted instance
 * neither re-opens nor forgets them). Forwards one {@link AnalyzerOutput} per input batch that published anything:
 * its {@link Alert}s and {@link JobHealth}s, stamped with their latest event time.
 */
final class AnalyzerProcessor implements Processor<String, List<PortInterval>, String, AnalyzerOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(AnalyzerProcessor.class);
    /** How often (event time) the declared jobs are checked for changes. */
    private static final long DOCUMENT_CHECK_MS = 5_000;

    private final AnalyzerSettings settings;
    private final AnalyzerListener listener;
    private ProcessorContext<String, AnalyzerOutput> context;
    private KeyValueStore<String, Alert> openAlerts;
    private ReadOnlyKeyValueStore<String, byte[]> topologies;
    private ReadOnlyKeyValueStore<String, byte[]> jobs;
    private FabricAnalyzer analyzer;
    private int documentsVersion;
    private int rejectedVersion;
    private int topologyVersion;
    private long lastCheckMs = Long.MIN_VALUE;
    private long waitingForTopology;

    AnalyzerProcessor(final AnalyzerSettings settings, final AnalyzerListener listener) {
        this.settings = settings;
        this.listener = listener;
    }

    @Override
    public void init(final ProcessorContext<String, AnalyzerOutput> context) {
        this.context = context;
        this.openAlerts = context.getStateStore(AnalyzerTopology.OPEN_ALERTS_STORE);
        this.topologies = context.getStateStore(AnalyzerTopology.TOPOLOGY_STORE);
        this.jobs = context.getStateStore(AnalyzerTopology.JOBS_STORE);
    }

    @Override
    public void process(final Record<String, List<PortInterval>> record) {
        if (record.value() == null) {
            return;
        }
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        for (final PortInterval interval : record.value()) {
            if (analyzer == null || interval.t1() - lastCheckMs >= DOCUMENT_CHECK_MS) {
                lastCheckMs = interval.t1();
                refreshTwin(interval);
                if (analyzer == null) {
                    continue;
                }
            }
            publish(analyzer.accept(interval), alerts, health);
        }
        listener.intervals(record.value().size());
        final AnalyzerOutput out = new AnalyzerOutput(alerts, health);
        if (!out.isEmpty()) {
            long eventTime = Long.MIN_VALUE;
            for (final Alert a : alerts) {
                eventTime = Math.max(eventTime, a.lastSeen());
            }
            for (final JobHealth h : health) {
                eventTime = Math.max(eventTime, h.ts());
            }
            context.forward(new Record<>(AnalyzerTopology.FABRIC_KEY, out, eventTime));
        }
    }

    private void refreshTwin(final PortInterval first) {
        final FabricDocuments docs = FabricDocuments.read(topologies, jobs);
        if (docs.topology() == null) {
            if (waitingForTopology++ % 100_000 == 0) {
                LOG.warn("no fabric topology yet on the topology topic: intervals are not analyzed until one arrives");
            }
            listener.rejected("no_topology");
            return;
        }
        if (analyzer != null && docs.version() == documentsVersion) {
            return;
        }
        if (analyzer != null && docs.topologyVersion() == topologyVersion) {
            try {
                analyzer.twin().updateJobs(docs.jobs(), first.t1());
                LOG.info("declared jobs changed: the replica follows at event time {}", first.t1());
            } catch (IllegalArgumentException e) {
                LOG.error("a job document cannot be used ({}): keeping the jobs as they were", e.getMessage());
                listener.rejected("bad_document");
            }
            documentsVersion = docs.version();
            return;
        }
        if (analyzer != null) {
            LOG.info("topology changed: rebuilding the twin replica");
        }
        final long epoch = Math.floorDiv(first.t0(), settings.tickMs()) * settings.tickMs();
        final AnalyzerConfig config = settings.analyzerConfig();
        final TwinReplica twin;
        try {
            twin = TwinReplica.from(docs.topology(), docs.jobs(), epoch);
        } catch (IllegalArgumentException e) {
            if (docs.version() != rejectedVersion) {
                LOG.error("the topology or jobs documents cannot be used ({}): {}", e.getMessage(),
                    analyzer == null ? "nothing is analyzed until they are fixed" : "keeping the previous ones");
                rejectedVersion = docs.version();
                listener.rejected("bad_document");
            }
            return;
        }
        analyzer = new FabricAnalyzer(twin, config);
        documentsVersion = docs.version();
        topologyVersion = docs.topologyVersion();
        final List<Alert> restored = new ArrayList<>();
        try (KeyValueIterator<String, Alert> it = openAlerts.all()) {
            it.forEachRemaining(kv -> restored.add(kv.value));
        }
        analyzer.restore(restored);
    }

    private void publish(final FabricAnalyzer.Output out, final List<Alert> alerts, final List<JobHealth> health) {
        if (out.unmatched() != null) {
            listener.unmatched(out.unmatched());
            return;
        }
        final long now = System.currentTimeMillis(); // the alert lag is wall clock against event time
        for (final Alert a : out.alerts()) {
            if (a.state() == Alert.State.RESOLVED) {
                openAlerts.delete(a.id());
            } else {
                openAlerts.put(a.id(), a);
            }
            listener.alert(a, now);
            alerts.add(a);
        }
        for (final JobHealth h : out.jobHealth()) {
            listener.jobHealth(h);
            health.add(h);
        }
        if (!out.ticks().isEmpty()) {
            final List<Alert> open = analyzer.openAlerts();
            for (final Tick t : out.ticks()) {
                listener.tick(new TickReport(analyzer.twin().fabric(), t, open, analyzer.lastTwinMs(),
                    analyzer.lateIntervals(), analyzer.clocksAhead()));
            }
        }
    }
}
