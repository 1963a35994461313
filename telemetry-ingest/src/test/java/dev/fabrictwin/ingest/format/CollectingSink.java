package dev.fabrictwin.ingest.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.fabrictwin.twin.telemetry.Sample;

/** Test sink that keeps everything an adapter reports. */
public final class CollectingSink implements IngestSink {

    public final List<Sample> samples = new ArrayList<>();
    public final List<Rejection> rejections = new ArrayList<>();
    public final List<String> dropped = new ArrayList<>();
    public final List<String> warnings = new ArrayList<>();
    public int records;

    @Override
    public void record() {
        records++;
    }

    @Override
    public void sample(final Sample sample) {
        samples.add(sample);
    }

    @Override
    public void reject(final Rejection rejection) {
        rejections.add(rejection);
    }

    @Override
    public void dropped(final String reason) {
        dropped.add(reason);
    }

    @Override
    public void warn(final String message) {
        warnings.add(message);
    }

    /** The one sample for a device and port (fails if there is none or several). */
    public Sample only(final String device, final String port) {
        final List<Sample> found = samples.stream().filter(s -> s.device().equals(device) && s.port().equals(port)).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one sample for " + device + "/" + port + ", found " + found.size()
                + " among " + samples.stream().map(s -> s.device() + "/" + s.port()).distinct().toList());
        }
        return found.get(0);
    }

    public Optional<Sample> find(final String device, final String port) {
        return samples.stream().filter(s -> s.device().equals(device) && s.port().equals(port)).findFirst();
    }
}
