package dev.fabrictwin.analyzer.topology;

import java.io.Serializable;

import dev.fabrictwin.analyzer.FabricAnalyzer;

/**
 * Everything the analysis task carries from one record to the next: the analyzer (replica, detectors, trackers,
 * lifecycle) and which documents it was built from. Checkpointed whole, so a restarted task resumes it exactly.
 */
final class AnalysisProgress implements Serializable {

    private static final long serialVersionUID = 1L;

    FabricAnalyzer analyzer;
    /** 64-bit hash of every document the replica follows, and of the topology alone (a change of it rebuilds). */
    long documentsHash;
    long topologyHash;
    /** False in a checkpoint of an earlier build, which held the 32-bit versions below instead of the hashes. */
    boolean hashed = true;
    /** An earlier build's 32-bit versions, read once to continue its checkpoint ({@link FabricDocuments#versionOfLegacy}). */
    int documentsVersion;
    int topologyVersion;
    /** Event time the documents were last compared with the global stores. */
    long lastCheckMs = Long.MIN_VALUE;
}
