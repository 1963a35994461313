package dev.fabrictwin.cluster.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostListTest {

    @Test
    void expandsRangesListsAndSeveralGroupsKeepingZeroPadding() {
        assertThat(HostList.expand("gpu[001-003,070]")).containsExactly("gpu001", "gpu002", "gpu003", "gpu070");
        assertThat(HostList.expand("a[1-2],b3")).containsExactly("a1", "a2", "b3");
        assertThat(HostList.expand("rack[1-2]-gpu[01-02]"))
            .containsExactly("rack1-gpu01", "rack1-gpu02", "rack2-gpu01", "rack2-gpu02");
        assertThat(HostList.expand("gpu[01-02],gpu04")).containsExactly("gpu01", "gpu02", "gpu04");
        assertThat(HostList.expand("node7")).containsExactly("node7");
        assertThat(HostList.expand("")).isEmpty();
        assertThat(HostList.expand("(null)")).isEmpty();
    }

    @Test
    void refusesMalformedListsNamingThem() {
        assertThatThrownBy(() -> HostList.expand("gpu[01-04")).hasMessage("host list 'gpu[01-04': unbalanced brackets");
        assertThatThrownBy(() -> HostList.expand("gpu[04-01]")).hasMessageContaining("range '04-01' runs backwards");
        assertThatThrownBy(() -> HostList.expand("gpu[a-b]")).hasMessageContaining("'a-b' is not a number or a range");
        assertThatThrownBy(() -> HostList.expand("gpu[1-99999999]")).hasMessageContaining("too long");
        assertThatThrownBy(() -> HostList.expand("a,,b")).hasMessageContaining("an empty name");
    }
}
