package dev.fabrictwin.simulator;

import dev.fabrictwin.twin.telemetry.Sample;

/** Where generated samples go, in delivery order: a file, stdout, or Kafka. */
@FunctionalInterface
public interface SampleSink {

    void accept(Sample sample);
}
