package dev.fabrictwin.cli.security;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.testing.kafka.KafkaReads;

/**
 * simulate, ingest and analyze against a SASL_SSL (SCRAM-SHA-512) broker that enforces ACLs, configured only through
 * {@code --config}: each principal with exactly the ACLs docs/security.md lists works; one without them is refused
 * with one line; no password of the config files reaches a log line, the commands' output or /metrics.
 */
class SecuredKafkaTest {

    private static final Topics TOPICS = Topics.DEFAULT;
    private static final String APP_ID = AnalyzerApp.DEFAULT_APPLICATION_ID;

    @TempDir
    static Path dir;
    private static SecuredBroker broker;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startSecuredBroker() {
        broker = new SecuredBroker(dir, "analyzer", "simulator", "ingest", "stranger", "revoked");
        kafka = broker.kafka();
        TopicSetup.ensure(properties(SecuredBroker.ADMIN), TOPICS); // an operator creates the topics: no principal below may
        kafka.createAcls(documentedAcls());
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static List<AclBinding> documentedAcls() {
        final List<AclBinding> acls = new ArrayList<>(LeastPrivilege.analyze("analyzer", TOPICS, APP_ID));
        acls.addAll(LeastPrivilege.simulate("simulator", TOPICS));
        acls.addAll(LeastPrivilege.ingest("ingest", TOPICS));
        return acls;
    }

    @Test
    void shouldExitOneForItsSupervisorWhenItsAuthorizationIsRevokedWhileItRuns() throws Exception {
        final String app = "revoked-analyzer";
        kafka.createAcls(LeastPrivilege.analyze("revoked", TOPICS, app));
        final String config = config("revoked").toString();
        final CompletableFuture<Run> analyze = CompletableFuture.supplyAsync(() -> run("analyze", "--config", config,
            "--application-id", app, "--metrics-port", "0", "--state-dir", dir.resolve("revoked-state").toString(),
            "--status-every", "0"));
        try (Admin admin = kafka.admin()) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !stable(admin, app)) {
                TimeUnit.MILLISECONDS.sleep(200); // polling the group's state with a deadline
            }
            // an operator takes its right to read the samples away: replacing threads cannot cure that
            admin.deleteAcls(List.of(new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC,
                    TOPICS.samples().name(), PatternType.LITERAL),
                new AccessControlEntryFilter("User:revoked", null,
                    AclOperation.READ, AclPermissionType.ALLOW))))
                .all().get(30, TimeUnit.SECONDS);
        }
        final Run analyzed = analyze.get(120, TimeUnit.SECONDS);

        assertThat(analyzed.exitCode()).as(analyzed.err()).isEqualTo(1);
        assertThat(analyzed.err()).contains("Kafka Streams stopped (ERROR: not authorized: ", "exiting 1 so a supervisor restarts it");
    }

    private static boolean stable(final Admin admin, final String group) throws Exception {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group).groupState()
                == GroupState.STABLE;
        } catch (ExecutionException e) {
            return false; // not created yet
        }
    }

    @Test
    void shouldSimulateIngestAndAnalyzeWithExactlyTheirAclsAndLeakNoSecret() throws Exception {
        final List<String> seen = new ArrayList<>();
        try (LogCapture logs = new LogCapture()) {
            final Run simulate = run("simulate", "--scenario", scenario().toString(), "--bootstrap",
                kafka.bootstrapServers(), "--config", config("simulator").toString());
            assertThat(simulate.exitCode()).as(simulate.err()).isZero();

            final Path in = Files.writeString(dir.resolve("in.jsonl"),
                "{\"ts\":1785000000000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"counters\":{\"tx_bytes\":10}}\n{broken\n");
            final Run ingest = run("ingest", "--format", "canonical", "--file", in.toString(), "--bootstrap",
                kafka.bootstrapServers(), "--config", config("ingest").toString());
            assertThat(ingest.err()).as("one sample to telemetry.samples, one line to telemetry.deadletter")
                .contains("samples out: 1, rejected: 1");
            assertThat(ingest.exitCode()).isZero();

            final int metricsPort = freePort();
            final String analyzerConfig = config("analyzer").toString();
            final CompletableFuture<Run> analyze = CompletableFuture.supplyAsync(() -> run("analyze", // bootstrap from the file
                "--config", analyzerConfig, "--metrics-port", Integer.toString(metricsPort),
                "--state-dir", dir.resolve("state").toString(), "--duration", "15s", "--status-every", "0"));
            final List<ConsumerRecord<byte[], byte[]>> alerts = awaitRecords(TOPICS.alerts().name(), Duration.ofSeconds(40));
            final String metrics = scrape(metricsPort);
            final Run analyzed = analyze.get(60, TimeUnit.SECONDS);

            assertThat(alerts).as("alerts published by the analyzer principal").isNotEmpty();
            assertThat(analyzed.exitCode()).as(analyzed.err()).isZero();
            assertThat(analyzed.err()).contains("RUNNING", "metrics at http://127.0.0.1:" + metricsPort + "/metrics");
            assertThat(metrics).contains("fabric_samples_processed");
            seen.addAll(List.of(simulate.out(), simulate.err(), ingest.out(), ingest.err(), analyzed.out(), analyzed.err(),
                metrics));
            seen.addAll(logs.lines());
        }
        assertThat(seen).as("the clients' config dumps were captured").anyMatch(l -> l.contains("sasl.jaas.config = [hidden]"));
        for (final String secret : broker.secrets()) {
            assertThat(seen).as("no line holds a password").noneMatch(l -> l.contains(secret));
        }
    }

    @Test
    void shouldRefuseAPrincipalWithoutTheAclsInOneLine() throws Exception {
        final Run simulate = run("simulate", "--scenario", scenario().toString(), "--bootstrap", kafka.bootstrapServers(),
            "--config", config("stranger").toString());

        assertThat(simulate.exitCode()).isEqualTo(1);
        assertThat(simulate.errLines()).singleElement().asString()
            .matches("fabric-twin simulate: not authorized to describe topic \\S+ \\(grant DESCRIBE on it\\): .*");
        assertThat(readError("stranger")).isInstanceOf(TopicAuthorizationException.class);
        assertThat(readError("ingest")).as("a producer principal cannot read alerts either")
            .isInstanceOf(TopicAuthorizationException.class);
        assertThat(writeError("stranger")).isInstanceOf(TopicAuthorizationException.class);
        assertThat(writeError("analyzer")).as("the analyzer principal cannot write samples")
            .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseToAnalyzeWithoutTheAnalyzersAclsInOneLine() throws Exception {
        for (final String principal : List.of("stranger", "ingest")) {
            final Run analyze = run("analyze", "--config", config(principal).toString(), "--application-id", "no-acl-" + principal,
                "--metrics-port", "0", "--state-dir", dir.resolve("no-acl-" + principal).toString(), "--status-every", "0");
            assertThat(analyze.exitCode()).as(analyze.err()).isEqualTo(1);
            assertThat(analyze.errLines()).as(principal).singleElement().asString().matches("fabric-twin analyze: not "
                + "authorized to (describe|read) topic \\S+ \\(grant (DESCRIBE|READ) on it.*");
        }
    }

    @Test
    void shouldDocumentExactlyTheTestedAcls() throws IOException {
        final String doc = Files.readString(Path.of("..", "docs", "security.md"));

        assertThat(doc).contains(LeastPrivilege.kafkaAclsLines(documentedAcls()));
    }

    /** What reading fabric.alerts from the start fails with for {@code user}. */
    private static Throwable readError(final String user) {
        final Properties p = properties(user);
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPICS.alerts().name(), 0)));
            consumer.seekToBeginning(consumer.assignment());
            return catchThrowable(() -> consumer.poll(Duration.ofSeconds(10)));
        }
    }

    /** What producing to telemetry.samples fails with for {@code user}. */
    private static Throwable writeError(final String user) {
        final Properties p = properties(user);
        p.put("max.block.ms", "10000");
        try (Producer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            final Throwable t = catchThrowable(() -> producer.send(new ProducerRecord<>(TOPICS.samples().name(), new byte[1]))
                .get(10, TimeUnit.SECONDS));
            return t != null && t.getCause() != null ? t.getCause() : t;
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> awaitRecords(final String topic, final Duration timeout) {
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties("admin"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(consumer.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList());
            consumer.seekToBeginning(consumer.assignment());
            return KafkaReads.readUntil(consumer, read -> !read.isEmpty(), timeout);
        }
    }

    private static String scrape(final int port) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** A short PFC storm: enough for alerts, small enough to run in seconds. */
    private static Path scenario() throws IOException {
        return Files.writeString(dir.resolve("short-storm.yaml"), """
            name: short-storm
            seed: 7
            duration: 90s
            sampleInterval: 1s
            fabric: {kind: spine-leaf, spines: 2, leaves: 4, hostsPerLeaf: 2, nicsPerHost: 1,
                     linkSpeed: 400G, hostLinkSpeed: 400G}
            jobs:
              - {id: llm-a, hosts: 8, pattern: ring-allreduce, bytesPerIteration: 8GB,
                 iterationPeriod: 2s, commFraction: 0.35}
            faults:
              - {type: PFC_STORM, target: {device: host-5, port: nic0}, start: 20s, end: 80s}
            """);
    }

    private static Path config(final String user) throws IOException {
        return broker.config(user);
    }

    private static Properties properties(final String user) {
        return broker.properties(user);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
