package dev.fabrictwin.analyzer.detect;

import java.util.List;

/** The signatures an analysis judges, in the order their findings are listed (and their cross-shard hooks run). */
public final class Detectors {

    private Detectors() {
    }

    /** A fresh set of every detector, each with empty windows. */
    public static List<Detector> all() {
        return List.of(new LinkFlapDetector(), new LinkDownDetector(), new LinkErrorDetector(),
            new PfcOriginDetector(), new LinkConservationDetector(), new EcnMisconfigDetector(),
            new UnexpectedTrafficDetector(), new StragglerDetector(), new EcmpSpreadDetector(), new LatencySloDetector());
    }
}
