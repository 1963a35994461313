package dev.fabrictwin.twin.workload;

import java.io.Serializable;

import dev.fabrictwin.twin.fabric.PortRef;

/** Bytes one NIC sends another in one iteration of a job's collective (same-host pairs never appear). */
public record Transfer(PortRef source, PortRef destination, double bytes) implements Serializable {
    public Transfer {
        if (!(bytes > 0)) {
            throw new IllegalArgumentException("transfer bytes must be > 0, was " + bytes);
        }
    }
}
