package dev.fabrictwin.analyzer.alert;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.detect.JobFootprint;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * {@link JobFootprint#inboundCrosses} on {@link AlertFixtures}' fabric: {@code train} crosses leaves (host-0 under
 * leaf-0 sends to host-2 under leaf-1 and back); {@code serve} stays under leaf-2.
 */
class InboundPathsTest {

    private static final JobFootprint FOOTPRINT = AlertFixtures.footprint();
    private static final PortRef HOST2 = new PortRef("host-2", "nic0");
    private static final PortRef HOST5 = new PortRef("host-5", "nic0");

    @Test
    void aFaultOnAnyEqualCostPathFromASendersSwitchExplainsTheNic() {
        // host-0's traffic to host-2 goes leaf-0 → spine-0 or spine-1 → leaf-1: every one of those may carry it
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.link("leaf-0", "spine-0"))).isTrue();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.link("leaf-1", "spine-1"))).isTrue();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.device("spine-1"))).isTrue();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.ecmpGroup("leaf-0"))).isTrue();
        // the sender's own NIC (a PFC storm there) or its host link
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.port(new PortRef("host-0", "nic0")))).isTrue();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.link("host-0", "leaf-0"))).isTrue();
    }

    @Test
    void aFaultOffEveryPathDoesNot() {
        // leaf-2's uplinks and hosts carry nothing of train's
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.link("leaf-2", "spine-0"))).isFalse();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.device("leaf-2"))).isFalse();
        assertThat(FOOTPRINT.inboundCrosses(HOST2, Entity.port(new PortRef("host-4", "nic0")))).isFalse();
        // serve's ring stays under leaf-2: no uplink of it is on a path into host-5
        assertThat(FOOTPRINT.inboundCrosses(HOST5, Entity.link("leaf-2", "spine-0"))).isFalse();
        assertThat(FOOTPRINT.inboundCrosses(HOST5, Entity.device("spine-0"))).isFalse();
        assertThat(FOOTPRINT.inboundCrosses(HOST5, Entity.port(new PortRef("host-4", "nic0")))).isTrue();
        // a NIC that is no job's rank
        assertThat(FOOTPRINT.inboundCrosses(new PortRef("host-1", "nic0"), Entity.device("spine-0"))).isFalse();
    }
}
