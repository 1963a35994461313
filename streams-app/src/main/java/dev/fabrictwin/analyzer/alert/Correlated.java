package dev.fabrictwin.analyzer.alert;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.analyzer.detect.Finding;

/** A finding after correlation: whether it is a root cause and, if not, the root-cause alert it follows from. */
record Correlated(String id, Finding finding, boolean rootCause, String causedBy, List<String> affectedJobs) implements Serializable {
}
