package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.cluster.topology.EosLldpJson;
import dev.fabrictwin.cluster.topology.GnmicLldp;
import dev.fabrictwin.cluster.topology.Iblinkinfo;
import dev.fabrictwin.cluster.topology.Ibnetdiscover;
import dev.fabrictwin.cluster.topology.LinksCsv;
import dev.fabrictwin.cluster.topology.LldpctlJson;
import dev.fabrictwin.cluster.topology.LldpctlKeyvalue;
import dev.fabrictwin.cluster.topology.NxosLldpJson;
import dev.fabrictwin.cluster.topology.Observations;
import dev.fabrictwin.cluster.topology.SonicLldp;
import dev.fabrictwin.cluster.topology.TopologyMerger;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.kafka.common.CheckedSends;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;
import dev.fabrictwin.twin.units.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin topology import}: the topology document from the fabric's own neighbour tables. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Build the fabric.topology document from what the fabric says about itself: LLDP neighbour tables "
            + "(lldpctl -f json/json0/keyvalue of each device, SONiC's LLDP_ENTRY_TABLE, Arista EOS 'show lldp neighbors "
            + "detail | json', Cisco NX-OS 'show lldp neighbors [detail] | json', OpenConfig LLDP state from gnmic), InfiniBand "
            + "ibnetdiscover or iblinkinfo, or a links CSV.",
        "Roles (host, leaf, spine, core) come from the graph: --role first, then what a source says (an IB CA or an "
            + "LLDP Station is a host, Bridge/Router a switch), then devices with no table of their own or only NIC "
            + "ports (eth0, mlx5_0, ib0, ...) are hosts; switches by distance from the hosts.",
        "The report on stderr lists every link only one end reports (kept), every pair of ends that disagree (the "
            + "confirmed claim wins), and every claim dropped; --strict makes warnings exit 1.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin topology import --lldpctl leaf01.json --lldpctl spine01.json --lldpctl gpu01.json --out topology.json",
        "  fabric-twin topology import --sonic-lldp leaf01=appl_db.json --links hosts.csv --role '^gpu=host' --id dc1 "
            + "--bootstrap kafka:9092",
        "  ibnetdiscover > fabric.topo && fabric-twin topology import --ibnetdiscover fabric.topo --out topology.json",
    })
final class TopologyImportCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    /** Where to publish (--bootstrap, --config, --topic-prefix); without them, a file or stdout. */
    @Mixin
    private KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--lldpctl", paramLabel = "[NAME=]FILE",
        description = "lldpctl -f json, -f json0 or -f keyvalue output of device NAME (the form is recognized; NAME "
            + "defaults to the file name without its extension). Repeatable.")
    private List<String> lldpctl = new ArrayList<>();

    @Option(names = "--sonic-lldp", paramLabel = "NAME=FILE",
        description = "An APPL_DB JSON dump of SONiC switch NAME (its LLDP_ENTRY_TABLE rows are read). Repeatable.")
    private List<String> sonic = new ArrayList<>();

    @Option(names = "--eos-lldp", paramLabel = "NAME=FILE",
        description = "Arista EOS 'show lldp neighbors detail | json' of switch NAME. Repeatable.")
    private List<String> eos = new ArrayList<>();

    @Option(names = "--nxos-lldp", paramLabel = "NAME=FILE",
        description = "Cisco NX-OS 'show lldp neighbors | json' (or '| json native') or 'show lldp neighbors detail | json' "
            + "of switch NAME, as the switch prints it or as NX-API answers it. Repeatable.")
    private List<String> nxos = new ArrayList<>();

    @Option(names = "--gnmic-lldp", paramLabel = "[NAME=]FILE",
        description = "gnmic get/subscribe output of /lldp/interfaces (JSON or event format); NAME overrides each "
            + "message's source. Repeatable.")
    private List<String> gnmic = new ArrayList<>();

    @Option(names = "--ibnetdiscover", paramLabel = "FILE", description = "ibnetdiscover output. Repeatable.")
    private List<Path> ibnetdiscover = new ArrayList<>();

    @Option(names = "--iblinkinfo", paramLabel = "FILE", description = "iblinkinfo output (its default form). Repeatable.")
    private List<Path> iblinkinfo = new ArrayList<>();

    @Option(names = "--links", paramLabel = "FILE",
        description = "A CSV of cables: a_device,a_port,b_device,b_port[,speed]. Repeatable.")
    private List<Path> links = new ArrayList<>();

    @Option(names = "--role", paramLabel = "REGEX=TIER",
        description = "Devices whose name the regex finds get TIER (host, leaf, spine, core). Repeatable; first match wins.")
    private List<String> roles = new ArrayList<>();

    @Option(names = "--default-speed", paramLabel = "RATE", defaultValue = "400G",
        description = "Speed of links no source gives one for (default: ${DEFAULT-VALUE}).")
    private String defaultSpeed;

    @Option(names = "--id", paramLabel = "ID", defaultValue = "fabric", description = "Fabric id (default: ${DEFAULT-VALUE}).")
    private String id;

    @Option(names = "--technology", paramLabel = "TECH",
        description = "roce, infiniband or ethernet (default: infiniband with --ibnetdiscover or --iblinkinfo, else roce).")
    private String technology;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the document here (stdout when neither --out nor Kafka).")
    private Path out;

    @Option(names = "--strict", description = "Exit 1 when the report has warnings (a table that contradicts another).")
    private boolean strict;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (lldpctl.isEmpty() && sonic.isEmpty() && eos.isEmpty() && nxos.isEmpty() && gnmic.isEmpty() && ibnetdiscover.isEmpty()
                && iblinkinfo.isEmpty() && links.isEmpty()) {
            throw new UsageException("give at least one source: --lldpctl, --sonic-lldp, --eos-lldp, --nxos-lldp, --gnmic-lldp, "
                + "--ibnetdiscover, --iblinkinfo or --links");
        }
        final List<TopologyMerger.Role> roleList = roles(); // options first: a bad one costs no reading
        final double speed = speed();
        final Technology tech = technology();
        final Observations all = new Observations();
        for (final String source : lldpctl) {
            final String[] named = named(source, null);
            all.addAll(read(named[1], () -> lldpctl(named[0], Files.readString(Path.of(named[1])))));
        }
        for (final String source : sonic) {
            final String[] named = named(source, "--sonic-lldp");
            all.addAll(read(named[1], () -> SonicLldp.read(named[0], JSON.readTree(Files.readString(Path.of(named[1]))))));
        }
        for (final String source : eos) {
            final String[] named = named(source, "--eos-lldp");
            all.addAll(read(named[1], () -> EosLldpJson.read(named[0], JSON.readTree(Files.readString(Path.of(named[1]))))));
        }
        for (final String source : nxos) {
            final String[] named = named(source, "--nxos-lldp");
            all.addAll(read(named[1], () -> NxosLldpJson.read(named[0], JSON.readTree(Files.readString(Path.of(named[1]))))));
        }
        for (final String source : gnmic) {
            final int eq = source.indexOf('=');
            final String file = eq > 0 ? source.substring(eq + 1) : source;
            all.addAll(read(file, () -> GnmicLldp.read(eq > 0 ? source.substring(0, eq) : null,
                JSON.readTree(Files.readString(Path.of(file))))));
        }
        for (final Path p : ibnetdiscover) {
            all.addAll(read(p.toString(), () -> Ibnetdiscover.read(Files.readString(p))));
        }
        for (final Path p : iblinkinfo) {
            all.addAll(read(p.toString(), () -> Iblinkinfo.read(Files.readString(p))));
        }
        for (final Path p : links) {
            all.addAll(read(p.toString(), () -> LinksCsv.read(Files.readString(p))));
        }
        final TopologyMerger.Result result;
        try {
            result = TopologyMerger.merge(all, roleList, speed, id, tech, JSON);
            FabricJson.fromJson(result.document(), id, tech); // what the analyzer will load
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        final PrintWriter err = spec.commandLine().getErr();
        result.report().lines().forEach(err::println);
        err.flush();
        final String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result.document());
        if (out != null) {
            Files.writeString(out, text + "\n");
        }
        if (kafka.given()) {
            final Properties client = kafka.clientConfig();
            final Topics topics = kafka.topics();
            TopicSetup.ensure(client, topics);
            final TopicSpec<String, TopologyDocument> topology = topics.topology();
            try (KafkaProducer<String, TopologyDocument> producer = topology.producer(client)) {
                final CheckedSends<String, TopologyDocument> sends = new CheckedSends<>(producer);
                sends.send(new ProducerRecord<>(topology.name(), id,
                    TopologyDocument.of(JSON.writeValueAsBytes(result.document()))));
                sends.flush();
            }
            err.printf(Locale.ROOT, "topology import: published %s to %s%n", id, topics.topology().name());
        } else if (out == null) {
            spec.commandLine().getOut().println(text);
        }
        err.flush();
        return strict && !result.report().warnings().isEmpty() ? FabricTwin.EXIT_FAILURE : FabricTwin.EXIT_OK;
    }

    /** A source that may fail: unreadable or malformed input is one line naming the file, exit 2. */
    @FunctionalInterface
    private interface Reading {
        Observations read() throws IOException;
    }

    private static Observations read(final String file, final Reading reading) {
        if (!Files.isRegularFile(Path.of(file))) {
            throw new UsageException("file not found: " + file);
        }
        try {
            return reading.read();
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException(file + ": " + (e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst()
                .orElse("")));
        }
    }

    /** lldpctl's JSON forms (json, json0) or its keyvalue lines, told apart by the first character. */
    private static Observations lldpctl(final String device, final String text) throws IOException {
        return LldpctlKeyvalue.isKeyvalue(text) ? LldpctlKeyvalue.read(device, text) : LldpctlJson.read(device, JSON.readTree(text));
    }

    /** {NAME, FILE} from NAME=FILE, or the file name without its extension when the name is optional (option null). */
    private static String[] named(final String source, final String nameRequiredBy) {
        final int eq = source.indexOf('=');
        if (eq > 0) {
            return new String[] {source.substring(0, eq), source.substring(eq + 1)};
        }
        if (nameRequiredBy != null) {
            throw new UsageException(nameRequiredBy + " needs NAME=FILE (the output does not name its switch), was '" + source + "'");
        }
        return new String[] {Path.of(source).getFileName().toString().replaceFirst("\\.[^.]*$", ""), source};
    }

    private List<TopologyMerger.Role> roles() {
        final List<TopologyMerger.Role> out = new ArrayList<>();
        for (final String r : roles) {
            final int eq = r.lastIndexOf('=');
            try {
                out.add(new TopologyMerger.Role(Pattern.compile(r.substring(0, Math.max(0, eq))),
                    Tier.valueOf(r.substring(eq + 1).toUpperCase(Locale.ROOT))));
            } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
                throw new UsageException("--role must be REGEX=TIER with TIER host, leaf, spine or core, was '" + r + "'");
            }
        }
        return out;
    }

    private double speed() {
        try {
            return Units.parseBitRate(defaultSpeed);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--default-speed: " + e.getMessage());
        }
    }

    private Technology technology() {
        if (technology == null) {
            return ibnetdiscover.isEmpty() && iblinkinfo.isEmpty() ? Technology.ROCE_V2 : Technology.INFINIBAND;
        }
        try {
            return Technology.parse(technology);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--technology: " + e.getMessage());
        }
    }
}
