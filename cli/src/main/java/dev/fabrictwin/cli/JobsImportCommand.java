package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.fabrictwin.cluster.jobs.JobChanges;
import dev.fabrictwin.cluster.jobs.JobImport;
import dev.fabrictwin.cluster.jobs.JobShape;
import dev.fabrictwin.cluster.jobs.KubernetesPods;
import dev.fabrictwin.cluster.jobs.ScheduledJob;
import dev.fabrictwin.cluster.jobs.SlurmJobs;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.PublishedDocuments;
import dev.fabrictwin.kafka.common.CheckedSends;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin jobs import}: running jobs from SLURM or Kubernetes as {@code fabric.jobs} documents. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Read the scheduler's running jobs and write them as fabric.jobs documents (id, hostList, pattern, sizes, "
            + "startMs, endMs): to a file, to stdout, or published to Kafka keyed by job id.",
        "The collective's shape comes from the job's own metadata (SLURM comment 'fabric-twin: pattern=ring-allreduce "
            + "bytes=8GB period=2s comm=0.35', or annotations fabric-twin.dev/pattern, .../bytes-per-iteration, "
            + ".../iteration-period, .../comm-fraction), else the first --mapping rule matching the job name, else "
            + "ring-allreduce, 1GB per 1s, comm 0.3 (the report names those jobs).",
        "--watch reads the source again every --every and publishes only changes: a new or changed job's document, "
            + "and a tombstone for a job that ended (the analyzer then removes its traffic at that event time).",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  squeue --json > squeue.json && fabric-twin jobs import --slurm-json squeue.json --out jobs.json",
        "  fabric-twin jobs import --slurm-json - --command 'squeue --json' --watch --every 30s --bootstrap kafka:9092",
        "  kubectl get pods -A -o json | fabric-twin jobs import --k8s-pods - --mapping jobs-map.yaml --bootstrap kafka:9092",
        "  (jobs-map.yaml: rules: [{match: '^llm-', pattern: hierarchical-allreduce, bytesPerIteration: 16GB, "
            + "iterationPeriod: 4s, commFraction: 0.3}])",
    })
final class JobsImportCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    /** Where to publish (--bootstrap, --config, --topic-prefix); without them, a file or stdout. */
    @Mixin
    private KafkaOptions kafka = new KafkaOptions();

    /** Exactly one source format. */
    static final class Source {
        @Option(names = "--slurm-json", paramLabel = "FILE|-", description = "squeue --json (or scontrol show job --json) output.")
        String slurmJson;
        @Option(names = "--scontrol", paramLabel = "FILE|-", description = "scontrol show job -d output (local times: --zone).")
        String scontrol;
        @Option(names = "--k8s-pods", paramLabel = "FILE|-", description = "kubectl get pods -o json or -o yaml output: a list, or one Pod (kubectl get pod NAME).")
        String k8sPods;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    @Option(names = "--command", paramLabel = "CMD",
        description = "Run this through 'sh -c' for each reading instead of reading the file (give the format's FILE as -).")
    private String command;

    @Option(names = "--mapping", paramLabel = "FILE", description = "YAML rules giving jobs their shape by name (see above).")
    private Path mapping;

    @Option(names = "--zone", paramLabel = "ZONE", description = "Time zone of scontrol's local times (default: this machine's).")
    private String zone;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the documents as a JSON array here.")
    private Path out;

    @Option(names = "--watch", description = "Keep reading the source and publish changes (with --bootstrap).")
    private boolean watch;

    @Option(names = "--every", paramLabel = "TIME", defaultValue = "30s", converter = DurationConverter.class,
        description = "How often --watch reads the source (default: ${DEFAULT-VALUE}).")
    private Duration every;

    @Option(names = "--readings", paramLabel = "N", defaultValue = "0",
        description = "With --watch: stop after N readings (default: until Ctrl-C).")
    private int readings;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (watch && !kafka.given()) {
            throw new UsageException("--watch publishes changes to Kafka: give --bootstrap (or --config)");
        }
        if (every.isNegative() || every.isZero() || readings < 0) {
            throw new UsageException("--every must be > 0 and --readings >= 0");
        }
        final List<JobShape.Rule> rules = rules();
        final PrintWriter err = spec.commandLine().getErr();
        JobImport first = read(rules);
        err.println(first.report());
        if (out != null) {
            Files.writeString(out, JSON.writerWithDefaultPrettyPrinter()
                .writeValueAsString(JSON.valueToTree(first.documents().values())) + "\n");
        }
        if (!kafka.given()) {
            if (out == null) {
                spec.commandLine().getOut().println(JSON.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(JSON.valueToTree(first.documents().values())));
            }
            return FabricTwin.EXIT_OK;
        }
        final Properties client = kafka.clientConfig();
        final Topics topics = kafka.topics();
        TopicSetup.ensure(client, topics);
        final TopicSpec<String, JobDocument> jobs = topics.jobs();
        final Map<String, JsonNode> published = watch ? new HashMap<>(PublishedDocuments.latest(client, jobs)) : new HashMap<>();
        try (KafkaProducer<String, JobDocument> producer = jobs.producer(client)) {
            final CheckedSends<String, JobDocument> sends = new CheckedSends<>(producer); // a refused job fails the command
            int done = 0;
            while (true) {
                final JobChanges changes = JobChanges.diff(watch ? published : Map.of(), first.documents());
                for (final Map.Entry<String, JsonNode> e : changes.put().entrySet()) {
                    sends.send(new ProducerRecord<>(jobs.name(), e.getKey(), JobDocument.of(JSON.writeValueAsBytes(e.getValue()))));
                    err.println("jobs import: " + (published.containsKey(e.getKey()) ? "changed " : "running ") + e.getKey()
                        + " on " + e.getValue().path("hosts").asInt() + " hosts");
                    published.put(e.getKey(), e.getValue());
                }
                for (final String id : changes.ended()) {
                    sends.send(new ProducerRecord<>(jobs.name(), id, null));
                    err.println("jobs import: ended " + id + " (tombstone)");
                    published.remove(id);
                }
                err.flush();
                sends.flush();
                if (!watch || ++done == readings) {
                    return FabricTwin.EXIT_OK;
                }
                TimeUnit.MILLISECONDS.sleep(every.toMillis()); // the scheduler is polled, not Kafka
                first = read(rules);
            }
        }
    }

    private JobImport read(final List<JobShape.Rule> rules) throws IOException, InterruptedException {
        final String text = new String(input(), StandardCharsets.UTF_8);
        final List<ScheduledJob> jobs;
        List<String> ignored = List.of();
        try {
            if (source.scontrol != null) {
                jobs = SlurmJobs.fromScontrol(text, zone == null ? ZoneId.systemDefault() : ZoneId.of(zone));
            } else if (source.slurmJson != null) {
                jobs = SlurmJobs.fromJson(JSON.readTree(text));
            } else {
                final KubernetesPods.Pods pods = KubernetesPods.read(text);
                jobs = pods.jobs();
                ignored = pods.ignored();
            }
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw new UsageException(sourceName() + ": " + firstLine(e.getMessage()));
        }
        return JobImport.of(jobs, ignored, rules, JSON);
    }

    private byte[] input() throws IOException, InterruptedException {
        final String file = source.slurmJson != null ? source.slurmJson : source.scontrol != null ? source.scontrol
            : source.k8sPods;
        if (command != null) {
            final Process p = new ProcessBuilder("sh", "-c", command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final byte[] bytes;
            try (InputStream in = p.getInputStream()) {
                bytes = in.readAllBytes();
            }
            if (p.waitFor() != 0) {
                throw new UsageException("'" + command + "' exited " + p.exitValue());
            }
            return bytes;
        }
        if (file.equals("-")) {
            return System.in.readAllBytes();
        }
        if (!Files.isRegularFile(Path.of(file))) {
            throw new UsageException("file not found: " + file);
        }
        return Files.readAllBytes(Path.of(file));
    }

    private String sourceName() {
        return command != null ? "'" + command + "'" : source.slurmJson != null ? source.slurmJson
            : source.scontrol != null ? source.scontrol : source.k8sPods;
    }

    private List<JobShape.Rule> rules() {
        if (mapping == null) {
            return List.of();
        }
        try {
            return JobShape.rules(new ObjectMapper(new YAMLFactory()).readTree(mapping.toFile()));
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException(mapping + ": " + firstLine(e.getMessage()));
        }
    }

    /** The jobs fabric.jobs holds now (a compacted topic: the latest document per id), so a restarted watch tombstones
     *  the jobs that ended while it was down. */
    private static String firstLine(final String message) {
        return message == null ? "unreadable" : message.lines().findFirst().orElse(message);
    }
}
