package dev.fabrictwin.twin.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;

import com.fasterxml.jackson.databind.ObjectMapper;

class PlacementTest {

    private static final Fabric FABRIC = new SpineLeaf(2, 4, 2, 2, 400e9, 400e9, Technology.ROCE_V2).build("p");
    private static final long S = 8_000_000_000L;

    private static JobSpec job(final String id, final int hosts, final Pattern pattern) {
        return new JobSpec(id, hosts, List.of(), pattern, S, Duration.ofSeconds(2), 0.35);
    }

    @Test
    void shouldSendTwoNMinusOneOverNTimesSizeAroundARingSkippingSameHostHops() {
        final PlacedJob j = Placement.place(FABRIC, List.of(job("r", 3, Pattern.RING_ALLREDUCE)), 1).get(0);

        // 3 hosts x 2 NICs = 6 ranks; hops 1->2, 3->4, 5->0 cross hosts; 0->1, 2->3, 4->5 stay on NVLink
        assertThat(j.ranks()).hasSize(6);
        assertThat(j.transfers()).hasSize(3);
        assertThat(j.transfers()).allSatisfy(t -> assertThat(t.bytes()).isCloseTo(2.0 * 5 / 6 * S, within(1e-3)));
        assertThat(j.transfers().get(0)).isEqualTo(new Transfer(new PortRef("host-0", "nic1"), new PortRef("host-1", "nic0"),
            2.0 * 5 / 6 * S));
    }

    @Test
    void shouldGiveEveryPatternItsDesignedByteCounts() {
        final List<PlacedJob> jobs = Placement.place(FABRIC, List.of(
            job("tree", 2, Pattern.TREE_ALLREDUCE), job("h", 2, Pattern.HIERARCHICAL_ALLREDUCE),
            job("a2a", 2, Pattern.ALL_TO_ALL), job("pipe", 2, Pattern.PIPELINE)), 1);

        // tree over 4 ranks: edges 1-0, 2-0, 3-1, S up and S down each; 1-0 is within host-0, so 2 edges x 2 x S
        assertThat(jobs.get(0).fabricBytesPerIteration()).isEqualTo(4.0 * S);
        // hierarchical, H=2 hosts, K=2: each rank sends 2(H-1)/H * S/K to the same NIC of the next host
        assertThat(jobs.get(1).transfers()).hasSize(4).allSatisfy(t -> assertThat(t.bytes()).isEqualTo(S / 2.0));
        // all-to-all over 4 ranks: S/4 to each of the 2 ranks on the other host
        assertThat(jobs.get(2).transfers()).hasSize(8).allSatisfy(t -> assertThat(t.bytes()).isEqualTo(S / 4.0));
        // pipeline: only the boundary 1|2 crosses hosts, S each way
        assertThat(jobs.get(3).transfers()).hasSize(2).allSatisfy(t -> assertThat(t.bytes()).isEqualTo((double) S));
    }

    @Test
    void anIncastSendsSFromEveryOtherRankToRankZeroAndAPermutationSendsSToOneDistinctRankEach() {
        final List<PlacedJob> jobs = Placement.place(FABRIC, List.of(
            job("gather", 4, Pattern.INCAST), job("perm", 4, Pattern.PERMUTATION)), 1);

        // incast over 8 ranks (4 hosts x 2 NICs): rank 1 shares host-0 with rank 0, so 6 senders on the fabric
        assertThat(jobs.get(0).transfers()).hasSize(6).allSatisfy(t -> {
            assertThat(t.destination()).isEqualTo(new PortRef("host-0", "nic0"));
            assertThat(t.bytes()).isEqualTo((double) S);
        });
        // permutation: every rank sends to one other rank, every rank receives once (same-host pairs stay off it)
        final List<Transfer> perm = jobs.get(1).transfers();
        assertThat(perm).extracting(Transfer::source).doesNotHaveDuplicates();
        assertThat(perm).extracting(Transfer::destination).doesNotHaveDuplicates();
        assertThat(perm).allSatisfy(t -> assertThat(t.source().device()).isNotEqualTo(t.destination().device()));
        // drawn from the seed and the job's place, not its name
        final List<PlacedJob> renamed = Placement.place(FABRIC, List.of(
            job("x", 4, Pattern.INCAST), job("other-name", 4, Pattern.PERMUTATION)), 1);
        assertThat(renamed.get(1).transfers()).isEqualTo(perm);
        assertThat(Pattern.parse("permutation").lockStep()).isFalse();
    }

    @Test
    void shouldPlaceJobsInOrderOnTheFirstFreeHostsOrTheirHostList() {
        final List<PlacedJob> jobs = Placement.place(FABRIC, List.of(
            new JobSpec("named", 0, List.of("host-6", "host-7"), Pattern.RING_ALLREDUCE, S, Duration.ofSeconds(1), 0.3),
            job("first", 2, Pattern.RING_ALLREDUCE), job("second", 2, Pattern.RING_ALLREDUCE)), 1);

        assertThat(jobs.get(0).hosts()).extracting(n -> n.name()).containsExactly("host-6", "host-7");
        assertThat(jobs.get(1).hosts()).extracting(n -> n.name()).containsExactly("host-0", "host-1");
        assertThat(jobs.get(2).hosts()).extracting(n -> n.name()).containsExactly("host-2", "host-3");
    }

    @Test
    void shouldRefuseAJobThatDoesNotFit() {
        assertThatThrownBy(() -> Placement.place(FABRIC, List.of(job("big", 9, Pattern.RING_ALLREDUCE)), 1))
            .hasMessage("job big needs 9 hosts but only 8 are free (fabric has 8)");
    }

    @Test
    void shiftSendsEachRankSToTheRankOffsetAheadAndDropsSameHostPairs() {
        // 3 hosts x 2 NICs = 6 ranks; offset 3: 0->3, 1->4, 2->5, 3->0, 4->1, 5->2, all across hosts
        final JobSpec shift3 = new JobSpec("s", 3, List.of(), Pattern.SHIFT, S, Duration.ofSeconds(2), 0.35, 3);
        assertThat(Placement.place(FABRIC, List.of(shift3), 1).get(0).transfers()).hasSize(6)
            .contains(new Transfer(new PortRef("host-1", "nic1"), new PortRef("host-0", "nic0"), S))
            .allSatisfy(t -> assertThat(t.bytes()).isEqualTo(S));
        // offset 1: 0->1, 2->3 and 4->5 stay on their hosts, 1->2, 3->4 and 5->0 cross
        final JobSpec shift1 = new JobSpec("s", 3, List.of(), Pattern.SHIFT, S, Duration.ofSeconds(2), 0.35);
        assertThat(Placement.place(FABRIC, List.of(shift1), 1).get(0).transfers()).extracting(t -> t.source().toString())
            .containsExactly("host-0/nic1", "host-1/nic1", "host-2/nic1");
    }

    @Test
    void aShiftOffsetEveryRankWouldSendToItselfOrAnOffsetOnAnotherPatternIsRefused() {
        final JobSpec shift6 = new JobSpec("s", 3, List.of(), Pattern.SHIFT, S, Duration.ofSeconds(2), 0.35, 6);
        assertThatThrownBy(() -> Placement.place(FABRIC, List.of(shift6), 1))
            .hasMessage("job s: offset 6 is a multiple of its 6 ranks: every rank would send to itself");
        assertThatThrownBy(() -> new JobSpec("r", 3, List.of(), Pattern.RING_ALLREDUCE, S, Duration.ofSeconds(2), 0.35, 2))
            .hasMessage("job r: offset 2 applies to pattern shift only, not ring-allreduce");
        assertThatThrownBy(() -> new JobSpec("s", 3, List.of(), Pattern.SHIFT, S, Duration.ofSeconds(2), 0.35, 0))
            .hasMessage("job s: offset must be >= 1, was 0");
    }

    @Test
    void aShiftJobsOffsetRoundTripsThroughItsJobDocument() {
        final JobSpec shift = new JobSpec("s", 3, List.of(), Pattern.SHIFT, S, Duration.ofSeconds(2), 0.35, 4);
        final PlacedJob placed = Placement.place(FABRIC, List.of(shift), 1).get(0);
        final var json = JobJson.toJson(placed, new ObjectMapper());
        assertThat(json.get("offset").asInt()).isEqualTo(4);
        assertThat(JobJson.fromJson(json).offset()).isEqualTo(4);
        assertThat(JobJson.toJson(Placement.place(FABRIC, List.of(job("r", 2, Pattern.RING_ALLREDUCE)), 1).get(0),
            new ObjectMapper()).has("offset")).isFalse();
    }

    /** A large all-to-all becomes one class per switch pair: N(N − K) flows' bytes, never N² transfers. */
    @Test
    void aLargeAllToAllIsPlacedAsOneFlowClassPerPairOfSwitchesWithEveryFlowsBytes() {
        final Fabric rail = new RailOptimized(512, 8, 32, 32, 400e9, 400e9, Technology.ROCE_V2).build("r");
        final PlacedJob j = Placement.place(rail, List.of(job("a2a", 512, Pattern.ALL_TO_ALL)), 1).get(0);

        final long n = 4096;
        assertThat(j.transfers()).isEmpty();
        assertThat(j.classes()).as("16 groups x 8 rails = 128 leaves, squared").hasSize(128 * 128);
        assertThat(j.fabricFlows()).isEqualTo(n * (n - 8));
        assertThat(j.fabricBytesPerIteration()).isCloseTo((double) n * (n - 8) * S / n, within(1e3));
        // two leaves of one group: 32 hosts each side, the 32 same-host pairs left out; two leaves of two groups: 32 x 32
        assertThat(j.classes().stream().mapToInt(FlowClass::members).distinct().sorted().toArray()).containsExactly(992, 1024);
        assertThat(Placement.place(FABRIC, List.of(job("small", 8, Pattern.ALL_TO_ALL)), 1).get(0).classes())
            .as("below %d flows an all-to-all goes flow by flow", Placement.AGGREGATE_ABOVE).isEmpty();
    }
}
