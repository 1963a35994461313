package dev.fabrictwin.twin.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FatTree;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.scenario.Routing;

class RouterTest {

    private static final Fabric FABRIC = new SpineLeaf(4, 2, 2, 1, 400e9, 400e9, Technology.ROCE_V2).build("r");
    private static final PortRef H0 = new PortRef("host-0", "nic0");
    private static final PortRef H1 = new PortRef("host-1", "nic0");
    private static final PortRef H2 = new PortRef("host-2", "nic0");

    @Test
    void shouldStayOnTheLeafForHostsOfOneLeafAndCrossASpineOtherwise() {
        final Router router = new Router(FABRIC, Routing.ecmp(1));

        assertThat(router.routes(H0, H1, 1)).singleElement().satisfies(r ->
            assertThat(r.links()).containsExactly(FABRIC.txLink(H0), FABRIC.rxLink(H1)));
        final Route cross = router.routes(H0, H2, 1).get(0);
        assertThat(cross.links()).hasSize(4);
        assertThat(cross.links()[0]).isEqualTo(FABRIC.txLink(H0));
        assertThat(cross.links()[3]).isEqualTo(FABRIC.rxLink(H2));
        assertThat(FABRIC.node(FABRIC.rxNode(cross.links()[1])).name()).startsWith("spine-");
    }

    @Test
    void shouldTakeAPinnedFirstHopAndFallBackToTheHashWhenThePinnedLinkIsDown() {
        final Router router = new Router(FABRIC, Routing.ecmp(1));
        final int leaf = FABRIC.requireNode("leaf-0").index();
        final Router.Choices choices = router.choices(H0, H2, 7);
        assertThat(choices.node()).isEqualTo(leaf);
        assertThat(choices.firstHops()).hasSize(4);
        final int hashed = router.routes(H0, H2, 7).get(0).links()[1] / 2;

        for (int i = 0; i < 4; i++) {
            final int member = choices.firstHops()[i];
            assertThat(router.pin(7, leaf, member)).isTrue();
            assertThat(router.pin(7, leaf, member)).as("the same pin again changes nothing").isFalse();
            assertThat(router.routes(H0, H2, 7).get(0).links()).containsExactly(choices.paths()[i]);
        }
        final int pinned = choices.firstHops()[3];
        assertThat(router.routes(H0, H2, 8).get(0).links()).as("other flows still hash")
            .containsExactly(new Router(FABRIC, Routing.ecmp(1)).routes(H0, H2, 8).get(0).links());
        router.setLinkUp(pinned, false);
        assertThat(router.routes(H0, H2, 7).get(0).links()[1] / 2).isNotEqualTo(pinned);
        router.setLinkUp(pinned, true);
        assertThat(router.routes(H0, H2, 7).get(0).links()[1] / 2).isEqualTo(pinned);
        assertThat(router.pin(7, leaf, -1)).isTrue();
        assertThat(router.routes(H0, H2, 7).get(0).links()[1] / 2).isEqualTo(hashed);
        assertThat(router.pinCount()).isZero();
        assertThat(router.choices(H0, H1, 7).firstHops()).as("one leaf: nothing to choose").isEmpty();
    }

    @Test
    void shouldRouteAFlowOnceWhileNothingThatDecidesItChanges() {
        final Router router = new Router(FABRIC, Routing.ecmp(42));
        final List<Route> first = router.routes(H0, H2, 9);
        assertThat(router.routes(H0, H2, 9)).as("remembered").isSameAs(first);
        assertThat(router.routes(H0, H2, 9, false)).as("computed again, the same").isNotSameAs(first)
            .usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(first);
        final int firstMember = router.choices(H0, H2, 9).firstHops()[0];
        router.setSkew(FABRIC.requireNode("leaf-0").index(), 1.0);
        assertThat(router.routes(H0, H2, 9).get(0).links()[1] / 2).as("a skew routes it again").isEqualTo(firstMember);
    }

    @Test
    void shouldSpreadManyFlowsNearlyEvenlyOverTheUplinks() {
        final int[] perSpine = spread(new Router(FABRIC, Routing.ecmp(42)), 8_000);

        // 8,000 flows over 4 spines: each within 10 % of 2,000 (binomial sd ~ 39)
        assertThat(Arrays.stream(perSpine).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(1_800, 2_200));
    }

    @Test
    void shouldPileFlowsOntoOneMemberUnderAnEcmpSkew() {
        final Router router = new Router(FABRIC, Routing.ecmp(42));
        router.setSkew(FABRIC.requireNode("leaf-0").index(), 0.8);

        final int[] perSpine = spread(router, 8_000);
        assertThat(perSpine[0]).isGreaterThan(8_000 * 80 / 100);
    }

    @Test
    void shouldAvoidADownLinkAndReturnNoRouteWhenTheNicLinkIsDown() {
        final Router router = new Router(FABRIC, Routing.ecmp(1));
        for (int s = 1; s < 4; s++) {
            router.setLinkUp(FABRIC.linksBetween("leaf-0", "spine-" + s).get(0).index(), false);
        }

        for (int k = 0; k < 50; k++) {
            assertThat(spineOf(router.routes(H0, H2, k).get(0))).isEqualTo("spine-0");
        }
        router.setLinkUp(FABRIC.requireLinkAt(H2).index(), false);
        assertThat(router.routes(H0, H2, 1)).isEmpty();
    }

    @Test
    void shouldSprayAFlowEvenlyOverEveryUplink() {
        final List<Route> routes = new Router(FABRIC, new Routing(Routing.Mode.SPRAY, 1, false)).routes(H0, H2, 7);

        assertThat(routes).hasSize(4).allSatisfy(r -> assertThat(r.weight()).isEqualTo(0.25));
        assertThat(routes.stream().map(RouterTest::spineOf).distinct()).hasSize(4);
    }

    @Test
    void shouldClimbToTheCoreOnlyBetweenPods() {
        final Fabric ft = FatTree.kAry(4, 1, 400e9, 400e9, Technology.ROCE_V2).build("ft");
        final Router router = new Router(ft, Routing.ecmp(1));

        assertThat(router.routes(new PortRef("host-0", "nic0"), new PortRef("host-2", "nic0"), 1).get(0).links()).hasSize(4);
        assertThat(router.routes(new PortRef("host-0", "nic0"), new PortRef("host-4", "nic0"), 1).get(0).links()).hasSize(6);
    }

    /** A flow's choices are walked once while nothing that decides them changes: links, skews, the flow's own pins. */
    @Test
    void choicesAreRememberedUntilALinkASkewOrTheFlowsPinChangesThem() {
        final Fabric ft = FatTree.kAry(4, 1, 400e9, 400e9, Technology.ROCE_V2).build("ft");
        final Router router = new Router(ft, Routing.ecmp(1));
        final PortRef from = new PortRef("host-0", "nic0");
        final PortRef to = new PortRef("host-4", "nic0"); // another pod: leaf, aggregation, core, aggregation, leaf
        final long key = Router.flowKey(from, to, 0);
        final Router.Choices first = router.choices(from, to, key);
        assertThat(first.firstHops()).hasSize(2);
        assertThat(router.choices(from, to, key)).as("remembered").isSameAs(first);
        assertThat(router.choices(to, from, key)).as("the same key between other ends is walked for them")
            .isNotSameAs(first).extracting(Router.Choices::node).isNotEqualTo(first.node());

        // a pin at the second switch of the first path moves that path's next hop (and only this flow's)
        final int second = ft.rxNode(first.paths()[0][1]);
        final int taken = first.paths()[0][2] / 2;
        final int other = IntStream.range(0, ft.degree(second)).map(i -> ft.linkOf(second, i))
            .filter(l -> l != taken && l != first.paths()[0][1] / 2 && !ft.node(ft.link(l).other(second)).isHost()
                && ft.node(ft.link(l).other(second)).name().startsWith("core"))
            .findFirst().orElseThrow();
        assertThat(router.pin(key, second, other)).isTrue();
        final Router.Choices pinned = router.choices(from, to, key);
        assertThat(pinned.paths()[0][2] / 2).as("walked again through the pin").isEqualTo(other);
        assertThat(router.choices(from, to, key + 1).paths()).as("another flow keeps its own")
            .isDeepEqualTo(new Router(ft, Routing.ecmp(1)).choices(from, to, key + 1).paths());

        router.setLinkUp(pinned.firstHops()[1], false);
        assertThat(router.choices(from, to, key).firstHops()).as("a down first hop is no choice")
            .containsExactly(pinned.firstHops()[0]);
        router.setLinkUp(pinned.firstHops()[1], true);
        assertThat(router.choices(from, to, key).firstHops()).containsExactly(pinned.firstHops());
        router.setSkew(second, 1.0);
        assertThat(router.choices(from, to, key)).as("a skew walks it again").isNotSameAs(pinned);
    }

    /** Flow classes spread over every equal-cost link of each hop: the layers between two leaves, both ways of finding them. */
    @Test
    void layersHoldEveryEqualCostLinkOfEachHopAndLeaveDownLinksOut() {
        final Fabric tree = new FatTree(2, 2, 2, 4, 2, 1, 400e9, 400e9, 400e9, Technology.ROCE_V2)
            .build("t");
        final Router router = new Router(tree, Routing.ecmp(1));
        final int a = tree.requireNode("leaf-0").index();
        final int b = tree.requireNode("leaf-3").index(); // the other pod: up to a spine, a core, down a spine
        final int[][] layers = router.layers(a, b);
        assertThat(layers).hasNumberOfRows(4);
        assertThat(Arrays.stream(layers).mapToInt(l -> l.length).toArray()).as("links per hop")
            .containsExactly(2, 4, 4, 2);
        for (final int[] layer : layers) {
            for (final int d : layer) {
                assertThat(tree.txNode(d)).isNotEqualTo(b);
            }
        }
        assertThat(Arrays.stream(layers[3]).map(tree::rxNode).distinct().toArray()).containsExactly(b);
        final int first = layers[0][0];
        router.setLinkUp(first / 2, false);
        assertThat(router.layers(a, b)[0]).as("a down uplink is left out").hasSize(1).doesNotContain(first);
        assertThat(router.layers(a, a)).isEmpty();
    }

    private static int[] spread(final Router router, final int flows) {
        final int[] perSpine = new int[4];
        for (int k = 0; k < flows; k++) {
            perSpine[Integer.parseInt(spineOf(router.routes(H0, H2, Router.flowKey(H0, H2, k)).get(0)).substring(6))]++;
        }
        return perSpine;
    }

    private static String spineOf(final Route r) {
        return FABRIC.node(FABRIC.rxNode(r.links()[1])).name();
    }
}
