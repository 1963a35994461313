package dev.fabrictwin.analyzer.detect;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * What an alert blames (DESIGN §3 alert {@code entity}): a port, a link (its two devices, named in a fixed
 * order so both ends give one id), a device, a device's ECMP group, or a job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Entity(String kind, String device, String port, String peer, String job) {

    public static Entity port(final PortRef ref) {
        return new Entity("port", ref.device(), ref.port(), null, null);
    }

    public static Entity link(final Link link) {
        return link(link.lower().device(), link.upper().device());
    }

    public static Entity link(final String a, final String b) {
        return a.compareTo(b) <= 0 ? new Entity("link", a, null, b, null) : new Entity("link", b, null, a, null);
    }

    public static Entity device(final String device) {
        return new Entity("device", device, null, null, null);
    }

    public static Entity ecmpGroup(final String device) {
        return new Entity("ecmp-group", device, null, null, null);
    }

    public static Entity job(final String job) {
        return new Entity("job", null, null, null, job);
    }

    /** Stable text form used in alert ids, e.g. {@code link:leaf-2~spine-1}. */
    @JsonIgnore
    public String key() {
        return switch (kind) {
            case "port" -> "port:" + device + "/" + port;
            case "link" -> "link:" + device + "~" + peer;
            case "job" -> "job:" + job;
            default -> kind + ":" + device;
        };
    }

    /** Whether this entity involves the device (a link involves both its ends). */
    public boolean touches(final String name) {
        return name.equals(device) || name.equals(peer);
    }

    @Override
    public String toString() {
        return key();
    }
}
