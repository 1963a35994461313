package dev.fabrictwin.contract.alert;

import java.io.Serializable;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultTarget;

/**
 * What an alert blames (docs/contracts.md, Alert {@code entity}): a port, a link (its two devices, named in a
 * fixed order so both ends give one id), a device, a device's ECMP group, or a job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Entity(Kind kind, String device, String port, String peer, String job) implements Serializable {

    /** The entity kinds, with their names on the wire. */
    public enum Kind {
        PORT("port"), LINK("link"), DEVICE("device"), ECMP_GROUP("ecmp-group"), JOB("job");

        private final String wire;

        Kind(final String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }

        @JsonCreator
        public static Kind of(final String wire) {
            for (final Kind k : values()) {
                if (k.wire.equals(wire)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown entity kind '" + wire + "' (port, link, device, ecmp-group, job)");
        }
    }

    public Entity {
        Objects.requireNonNull(kind, "kind");
    }

    public static Entity port(final PortRef ref) {
        return new Entity(Kind.PORT, ref.device(), ref.port(), null, null);
    }

    public static Entity link(final Link link) {
        return link(link.lower().device(), link.upper().device());
    }

    public static Entity link(final String a, final String b) {
        return a.compareTo(b) <= 0 ? new Entity(Kind.LINK, a, null, b, null) : new Entity(Kind.LINK, b, null, a, null);
    }

    public static Entity device(final String device) {
        return new Entity(Kind.DEVICE, device, null, null, null);
    }

    public static Entity ecmpGroup(final String device) {
        return new Entity(Kind.ECMP_GROUP, device, null, null, null);
    }

    public static Entity job(final String job) {
        return new Entity(Kind.JOB, null, null, null, job);
    }

    /** Stable text form used in alert ids, e.g. {@code link:leaf-2~spine-1}. */
    @JsonIgnore
    public String key() {
        return switch (kind) {
            case PORT -> "port:" + device + "/" + port;
            case LINK -> "link:" + device + "~" + peer;
            case JOB -> "job:" + job;
            case DEVICE, ECMP_GROUP -> kind.wire() + ":" + device;
        };
    }

    /** Whether this entity involves the device (a link involves both its ends). */
    public boolean touches(final String name) {
        return name.equals(device) || name.equals(peer);
    }

    /**
     * Whether this entity names exactly the fault's target (docs/contracts.md, Scoring: "localized"): the same port;
     * a link's two devices in either order; a device or its ECMP group; the job.
     */
    public boolean names(final FaultTarget target) {
        return switch (target.kind()) {
            case PORT -> kind == Kind.PORT && target.device().equals(device) && target.port().equals(port);
            case LINK -> kind == Kind.LINK && touches(target.device()) && touches(target.peer());
            case DEVICE -> (kind == Kind.DEVICE || kind == Kind.ECMP_GROUP) && target.device().equals(device);
            case JOB -> kind == Kind.JOB && Objects.equals(target.job(), job);
        };
    }

    @Override
    public String toString() {
        return key();
    }
}
