package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.List;

/** One anomaly signature judged against the twin; called once per closed tick, may keep its own windows. */
public interface Detector extends Serializable {

    void detect(TickContext context, List<Finding> out);
}
