package dev.fabrictwin.twin.model;

import java.io.Serializable;

/**
 * What one directed link (a transmitting port and its peer) does from {@code start} until the next state:
 * rates are constant in between, so counters over any interval are exact integrals of these values.
 *
 * @param start            simulation seconds at which this state begins
 * @param rateBps          bits/s transmitted
 * @param capacityBps      usable capacity now (after degradation; 0 when down)
 * @param offeredBps       what the flows on it would send if this link did not limit them
 * @param flows            flows crossing it
 * @param queueBytes       mean egress queue depth at the transmitting port
 * @param markProbability  fraction of its packets ECN-marked at this egress
 * @param pausedFraction   fraction of time the receiver holds the transmitter paused with PFC
 * @param pauseOrigin      true when the pause comes from a fault at the receiver, not from congestion
 * @param dropFraction     packets lost on the wire without any error counter (silent drop)
 * @param fecPerBit        corrected FEC codewords per received bit
 * @param crcPerPacket     FCS errors per received packet
 * @param addedLatencyUs   extra latency injected at the transmitting port
 * @param cnpPerSec        on a link into a NIC: CNPs that NIC sends for marked packets; on a link out of a NIC: CNPs it handles
 * @param up               false while the link is down
 */
public record LinkState(double start, double rateBps, double capacityBps, double offeredBps, int flows,
                        double queueBytes, double markProbability, double pausedFraction, boolean pauseOrigin,
                        double dropFraction, double fecPerBit, double crcPerPacket, double addedLatencyUs,
                        double cnpPerSec, boolean up) implements Serializable {

    /** Same state from a new start time (used when nothing changed but a record must start). */
    public LinkState at(final double newStart) {
        return new LinkState(newStart, rateBps, capacityBps, offeredBps, flows, queueBytes, markProbability,
            pausedFraction, pauseOrigin, dropFraction, fecPerBit, crcPerPacket, addedLatencyUs, cnpPerSec, up);
    }

    /** True when every value a counter depends on is equal (start ignored). */
    public boolean sameAs(final LinkState o) {
        return o != null && rateBps == o.rateBps && capacityBps == o.capacityBps && offeredBps == o.offeredBps
            && flows == o.flows && queueBytes == o.queueBytes && markProbability == o.markProbability
            && pausedFraction == o.pausedFraction && pauseOrigin == o.pauseOrigin && dropFraction == o.dropFraction
            && fecPerBit == o.fecPerBit && crcPerPacket == o.crcPerPacket && addedLatencyUs == o.addedLatencyUs
            && cnpPerSec == o.cnpPerSec && up == o.up;
    }
}
