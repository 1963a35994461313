package dev.fabrictwin.analyzer.rates;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimeGateTest {

    private static final long WALL = 1_800_000_000_000L;
    private static final long T = 1_735_689_600_000L; // a replayed capture: event time far behind the wall clock

    private final TimeGate gate = new TimeGate(10 * 60_000, 5 * 60_000);

    @Test
    void passesSamplesAroundTheEventTimeAndLateOnes() {
        assertThat(gate.judge("leaf-0", T, WALL)).isEmpty();
        assertThat(gate.judge("leaf-1", T + 90_000, WALL)).isEmpty();   // 90 s ahead: within the jump allowed
        assertThat(gate.judge("leaf-2", T - 3_600_000, WALL)).isEmpty(); // behind: per-port ordering decides
    }

    @Test
    void refusesOneDeviceStampedHoursAheadOfItsPartitionEveryTime() {
        gate.judge("leaf-0", T, WALL);

        assertThat(gate.judge("host-7", T + 7_200_000, WALL)).hasValueSatisfying(reason ->
            assertThat(reason).startsWith("device host-7 stamped its sample 7200 s ahead of the newest event time"));
        assertThat(gate.judge("host-7", T + 7_201_000, WALL)).isPresent();
        assertThat(gate.judge("host-7", T + 7_202_000, WALL)).isPresent();
        assertThat(gate.judge("leaf-0", T + 1_000, WALL)).isEmpty();
    }

    @Test
    void followsAJumpThreeDevicesAgreeOn() {
        gate.judge("leaf-0", T, WALL);
        final long resumed = T + 3_600_000;   // telemetry resumes an hour later

        assertThat(gate.judge("leaf-0", resumed, WALL)).isPresent();
        assertThat(gate.judge("leaf-1", resumed + 200, WALL)).isPresent();
        assertThat(gate.judge("leaf-2", resumed + 400, WALL)).isEmpty();
        assertThat(gate.judge("leaf-0", resumed + 1_000, WALL)).isEmpty();
    }

    @Test
    void refusesAnythingStampedFarAheadOfTheWallClockEvenFirst() {
        assertThat(gate.judge("host-1", WALL + 2 * 3_600_000, WALL)).hasValueSatisfying(reason ->
            assertThat(reason).isEqualTo("device host-1 stamped its sample 7200 s ahead of the wall clock "
                + "(at most 600 s accepted): its clock is wrong"));
        assertThat(gate.judge("host-1", WALL + 60_000, WALL)).isEmpty();
    }
}
