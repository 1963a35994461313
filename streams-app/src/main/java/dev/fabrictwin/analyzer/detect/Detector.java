package dev.fabrictwin.analyzer.detect;

import java.util.List;

/** One anomaly signature judged against the twin; called once per closed tick, may keep its own windows. */
public interface Detector {

    void detect(TickContext context, List<Finding> out);
}
