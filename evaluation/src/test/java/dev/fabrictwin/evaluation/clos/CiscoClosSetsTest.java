package dev.fabrictwin.evaluation.clos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Seven labelled sets of a real IOS-XR lab Clos (cisco-ie/telemetry, test resources {@code clos/}, their README) through
 * the real analysis as {@code replay --topology} runs it: no declared jobs, 10 s polls at every router's own phase and
 * cadence (spine1 every ~11.5 s), the lab's Ixia traffic undeclared. Each set's report (root alerts and what they name,
 * each labelled link event and the sample that first showed it) is printed.
 */
class CiscoClosSetsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern MOVED_MEMBER = Pattern.compile("links to (\\S+) moved its traffic: (\\S+) carries");

    @TempDir
    Path work;

    @Test
    void shouldAlertALinkShutDownOnItsLinkNoEarlierThanTheEvidenceAndWithinOneInterval() throws IOException {
        final ClosSetReplay.Outcome set = replay("S-200122_1729_iflap_ifdown");
        final ClosEvent shutdown = labelled(set, "shutdown_interface");
        final String port = portOf(shutdown);
        final Alert down = onlyRootIsLinkDownOn(set, port);
        final Sample evidence = set.firstShowing(port, shutdown.tsMs(), false).orElseThrow();
        // the earliest interval whose end shows the link down starts at the evidence's interval start; the alert claims
        // no earlier, and no later than one interval after it
        final long evidenceFrom = set.intervalStart(evidence);
        assertThat(down.firstSeen()).isBetween(evidenceFrom, evidenceFrom + set.intervalMs());
    }

    @Test
    void shouldKeepALinkThatWasDownOpenUntilItIsEnabledAndRaiseNothingElse() throws IOException {
        final ClosSetReplay.Outcome set = replay("S-200122_1729_iflap_ifup");
        final ClosEvent enable = labelled(set, "enable_interface");
        final String port = portOf(enable);
        final Alert down = onlyRootIsLinkDownOn(set, port);
        assertThat(down.firstSeen()).isLessThan(enable.tsMs());
        final long shownUp = set.firstShowing(port, enable.tsMs(), true).orElseThrow().ts();
        assertThat(set.alerts()).filteredOn(a -> a.id().equals(down.id()) && a.state() == Alert.State.RESOLVED)
            .singleElement().satisfies(r -> assertThat(r.lastSeen()).isBetween(shownUp - set.intervalMs(), shownUp));
    }

    @Test
    void shouldRaiseNoRootWhenOnlyBfdControlTrafficIsFilteredOrRestored() throws IOException {
        assertThat(replay("S-200124_0247_bfd_break").rootsOpened()).isEmpty();
        assertThat(replay("S-200202_1940_bfd-1").rootsOpened()).isEmpty();
    }

    @Test
    void shouldRaiseNoRootWhenAPrefixIsBlackholedInARouterWhoseCountersShowNothing() throws IOException {
        assertThat(replay("S-200122_1624_blackhole_big").rootsOpened()).isEmpty();
    }

    @Test
    void shouldNameTheSpineWhoseEcmpSpreadChangedWithAShareTheDataShows() throws IOException {
        for (final String name : List.of("S-200121_0507_ecmp_balance", "S-200122_1802_ecmp_low_traffic-2")) {
            final ClosSetReplay.Outcome set = replay(name);
            final ClosEvent change = labelled(set, "set_loopback");

            assertThat(set.rootsOpened()).as(name).isNotEmpty().allSatisfy(a -> {
                assertThat(a.type()).isEqualTo(FaultType.ECMP_IMBALANCE);
                assertThat(a.entity().device()).isEqualTo(change.device());
                assertThat(a.firstSeen()).isGreaterThan(change.tsMs());
                final Matcher m = MOVED_MEMBER.matcher(a.summary());
                assertThat(m.find()).as(a.summary()).isTrue();
                // the named port's share of its bundle's bytes over the alert's window, read from the samples
                final long windowMs = 5 * set.intervalMs();
                assertThat(a.observed()).as(a.summary()).isCloseTo(
                    shareOf(set, change.device(), m.group(2), m.group(1), a.firstSeen() + set.intervalMs() - windowMs,
                        a.firstSeen() + set.intervalMs()), within(0.05));
            });
        }
    }

    @Test
    void shouldFindTheLabFlappingPortAsALinkFlapOnceTheMapHoldsIt() throws IOException {
        // leaf8 HundredGigE0/0/0/18 flaps 11 times in this set (its carrier-transitions) but CDP never saw a neighbour
        // there: a user who knows what it is cabled to adds it, as a links CSV row would
        final Path set = copyOf("S-200121_0507_ecmp_balance");
        final ObjectNode topology = (ObjectNode) JSON.readTree(set.resolve("topology.json").toFile());
        topology.withArray("nodes").addObject().put("name", "rswFlap").put("tier", "host");
        topology.withArray("links").addObject().put("lower", "rswFlap/eth0").put("upper", "leaf8/HundredGigE0/0/0/18")
            .put("speed", "100G");
        JSON.writeValue(set.resolve("topology.json").toFile(), topology);

        final ClosSetReplay.Outcome outcome = ClosSetReplay.replay(set, work);
        System.out.println(outcome.report());

        assertThat(outcome.rootsOpened()).filteredOn(a -> a.type() == FaultType.LINK_FLAP).singleElement()
            .satisfies(a -> assertThat(a.entity().key()).isEqualTo("link:leaf8~rswFlap"));
        // the spine whose hash changed is still found beside it
        assertThat(outcome.rootsOpened()).filteredOn(a -> a.type() == FaultType.ECMP_IMBALANCE)
            .singleElement().satisfies(a -> assertThat(a.entity().device()).isEqualTo("spine3"));
    }

    /** The share of {@code device}'s tx bytes to {@code toward} that {@code port} carried in [from, to). */
    private static double shareOf(final ClosSetReplay.Outcome set, final String device, final String port,
                                  final String toward, final long from, final long to) {
        final Map<String, Double> bytes = new TreeMap<>();
        set.peers().forEach((end, peer) -> {
            if (end.startsWith(device + "/") && peer.startsWith(toward + "/")) {
                final TreeMap<Long, Sample> series = set.series().get(end);
                final Map.Entry<Long, Sample> a = series.ceilingEntry(from);
                final Map.Entry<Long, Sample> b = series.floorEntry(to);
                bytes.put(end, b.getValue().counters().get("tx_bytes") - (double) a.getValue().counters().get("tx_bytes"));
            }
        });
        final double total = bytes.values().stream().mapToDouble(Double::doubleValue).sum();
        return bytes.get(device + "/" + port) / total;
    }

    private static String portOf(final ClosEvent e) {
        return e.device() + "/" + e.iface();
    }

    /** The set's one root alert, a {@code LINK_DOWN} on the link of {@code port}. */
    private static Alert onlyRootIsLinkDownOn(final ClosSetReplay.Outcome set, final String port) {
        assertThat(set.rootsOpened()).hasSize(1);
        return set.linkDown(port).orElseThrow();
    }

    private static ClosEvent labelled(final ClosSetReplay.Outcome set, final String event) {
        return set.events().stream().filter(e -> e.event().equals(event)).findFirst().orElseThrow();
    }

    private ClosSetReplay.Outcome replay(final String name) throws IOException {
        final ClosSetReplay.Outcome outcome = ClosSetReplay.replay(resource(name), work);
        System.out.println(outcome.report());
        return outcome;
    }

    private Path copyOf(final String name) throws IOException {
        final Path to = Files.createDirectories(work.resolve("copy-" + name));
        try (var files = Files.list(resource(name))) {
            for (final Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    private static Path resource(final String name) {
        try {
            return Path.of(CiscoClosSetsTest.class.getResource("/clos/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
