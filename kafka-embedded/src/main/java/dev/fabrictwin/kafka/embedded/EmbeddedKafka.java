package dev.fabrictwin.kafka.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

import dev.fabrictwin.kafka.common.KafkaTopics;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A real Apache Kafka cluster in KRaft mode running inside this JVM, bound to 127.0.0.1.
 *
 * <p>It runs the same server classes as {@code kafka-server-start.sh} ({@link KafkaRaftServer}), not a
 * mock: node 0 is a combined controller + broker, nodes 1..n-1 are brokers that join its static quorum
 * (three combined nodes are unstable in-JVM, one controller is not). Storage is formatted exactly as
 * {@code kafka-storage.sh format} does, in a temporary directory that {@link #close()} deletes.
 *
 * <p>Used by the test fixtures and by {@code fabric-twin demo}/{@code broker} alike, so what the tests
 * prove about the broker is what users run.
 */
public final class EmbeddedKafka implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final String BROKER_LISTENER = "PLAINTEXT";
    /** With {@link Builder#saslSsl}: the client listener, while brokers talk over INTERNAL. */
    private static final String SECURE_LISTENER = "SASL_SSL";
    private static final String INTERNAL_LISTENER = "INTERNAL";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /** Every node, controller first; a stopped broker's slot is null until it starts again. */
    private final KafkaRaftServer[] servers;
    private final List<Properties> nodeConfigs;
    /** Node id of broker 0 (1 when the controller is a node of its own). */
    private final int firstBrokerNode;
    private final List<Integer> brokerPorts;
    private final Path dataDir;
    private final boolean deleteDataDir;
    private final Duration startTime;
    private final SaslSslListener secure;
    private boolean closed;

    private EmbeddedKafka(final List<KafkaRaftServer> servers, final List<Properties> nodeConfigs, final int firstBrokerNode,
                          final List<Integer> brokerPorts, final Path dataDir, final boolean deleteDataDir,
                          final Duration startTime, final SaslSslListener secure) {
        this.servers = servers.toArray(KafkaRaftServer[]::new);
        this.nodeConfigs = nodeConfigs;
        this.firstBrokerNode = firstBrokerNode;
        this.brokerPorts = brokerPorts;
        this.dataDir = dataDir;
        this.deleteDataDir = deleteDataDir;
        this.startTime = startTime;
        this.secure = secure;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A one-broker cluster on free ports, data in a temp dir: the common case. */
    public static EmbeddedKafka startSingleBroker() {
        return builder().start();
    }

    /** {@code host:port,...} for every broker. */
    public String bootstrapServers() {
        return String.join(",", brokerPorts.stream().map(p -> HOST + ":" + p).toList());
    }

    public int brokerCount() {
        return brokerPorts.size();
    }

    /** Replication factor that the cluster can honour for new topics: min(3, brokers). */
    public short defaultReplicationFactor() {
        return (short) Math.min(3, brokerCount());
    }

    /** Wall time from {@code start()} until every broker answered a metadata request. */
    public Duration startTime() {
        return startTime;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** A new admin client (the super user on a secured cluster); the caller closes it. */
    public Admin admin() {
        return Admin.create(adminConfig(bootstrapServers(), secure));
    }

    /** Creates (or changes the password of) a SCRAM user and waits until the broker accepts its login. */
    public void createScramUser(final String user, final String password) {
        try (Admin admin = admin()) {
            complete("create SCRAM user " + user, admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password))).all());
            awaitCondition("SCRAM user " + user + " not in effect", () -> !admin.describeUserScramCredentials(List.of(user)).all()
                .get(5, TimeUnit.SECONDS).isEmpty());
        }
    }

    /** Creates the ACLs and waits until the broker's authorizer enforces them. */
    public void createAcls(final Collection<AclBinding> acls) {
        try (Admin admin = admin()) {
            complete("create ACLs", admin.createAcls(acls).all());
            awaitCondition("ACLs " + acls + " not in effect", () -> admin.describeAcls(AclBindingFilter.ANY).values()
                .get(5, TimeUnit.SECONDS).containsAll(acls));
        }
    }

    private static void complete(final String what, final KafkaFuture<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Check {
        boolean done() throws Exception;
    }

    /** Polls {@code check} until it holds; metadata changes reach the broker asynchronously. */
    private static void awaitCondition(final String failure, final Check check) {
        final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        try {
            while (System.nanoTime() < deadline) {
                try {
                    if (check.done()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                }
                TimeUnit.MILLISECONDS.sleep(50); // pause between polls of a deadline-bounded wait
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            last = e;
        }
        throw new IllegalStateException(failure + " within " + READY_TIMEOUT
            + (last == null ? "" : ": " + last.getMessage()), last);
    }

    private static Map<String, Object> adminConfig(final String bootstrap, final SaslSslListener secure) {
        final Map<String, Object> config = new HashMap<>();
        if (secure != null) {
            config.putAll(secure.clientConfig(secure.superUser(), secure.superUserPassword()));
        }
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return config;
    }

    /**
     * Stops broker {@code broker} (0-based, in {@link #bootstrapServers()} order) as a clean shutdown does: its
     * partitions move to the other replicas. Its data stays for {@link #startBroker}.
     */
    public synchronized void stopBroker(final int broker) {
        final int node = brokerNode(broker);
        if (servers[node] != null) {
            servers[node].shutdown();
            servers[node].awaitShutdown();
            servers[node] = null;
        }
    }

    /** Starts a stopped broker again on its own data and port, and waits until the cluster lists it. */
    public synchronized void startBroker(final int broker) {
        final int node = brokerNode(broker);
        if (servers[node] != null) {
            return;
        }
        final KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(nodeConfigs.get(node), false), Time.SYSTEM);
        server.startup();
        servers[node] = server;
        try (Admin admin = admin()) {
            awaitCondition("broker " + broker + " did not rejoin", () -> admin.describeCluster().nodes()
                .get(5, TimeUnit.SECONDS).stream().anyMatch(n -> n.id() == node));
        }
    }

    private int brokerNode(final int broker) {
        if (broker < 0 || broker >= brokerPorts.size()) {
            throw new IllegalArgumentException("no broker " + broker + " (0.." + (brokerPorts.size() - 1) + ")");
        }
        return firstBrokerNode + broker;
    }

    /** Creates the topics (existing ones are left as they are) and waits until every partition has a leader. */
    public void createTopics(final Collection<NewTopic> topics) {
        try (Admin admin = admin()) {
            KafkaTopics.createAndAwait(admin, topics);
        }
    }

    public void createTopic(final String name, final int partitions) {
        createTopics(List.of(new NewTopic(name, partitions, defaultReplicationFactor())));
    }

    /** Stops every node (brokers first, the controller last) and deletes the data directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = servers.length - 1; i >= 0; i--) {
            if (servers[i] != null) {
                servers[i].shutdown();
                servers[i].awaitShutdown();
            }
        }
        if (deleteDataDir) {
            deleteRecursively(dataDir);
        }
    }

    /** Written by the storage format into each node's directory; holds the cluster id. */
    static final String META_PROPERTIES = "meta.properties";

    /** Configures and starts an {@link EmbeddedKafka}. */
    public static final class Builder {
        private int brokers = 1;
        private int port;
        private Path dataDir;
        private SaslSslListener secure;
        private boolean dedicatedController;
        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder() {
        }

        /** Number of brokers, 1 to 5. The first one is also the KRaft controller. */
        public Builder brokers(final int brokers) {
            if (brokers < 1 || brokers > 5) {
                throw new IllegalArgumentException("brokers must be 1..5, was " + brokers);
            }
            this.brokers = brokers;
            return this;
        }

        /** Port of the first broker on 127.0.0.1; 0 (the default) picks free ports. */
        public Builder port(final int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Runs the KRaft controller as a node of its own (node 0) beside the {@link #brokers} brokers (nodes 1..n),
         * as production clusters do: any broker can then be stopped and restarted while the quorum stays up.
         */
        public Builder dedicatedController() {
            this.dedicatedController = true;
            return this;
        }

        /** Keep data here instead of a temp dir (it is then not deleted on close). */
        public Builder dataDir(final Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        /**
         * Secures the client listener with SASL/SCRAM-SHA-512 over TLS and enforces ACLs ({@code StandardAuthorizer},
         * nothing allowed without an ACL); the super user is created with the storage. Brokers and the controller
         * keep talking PLAINTEXT on 127.0.0.1; clients bootstrapping from the SASL_SSL port are only told of SASL_SSL
         * endpoints (metadata answers with the listener a request came in on).
         */
        public Builder saslSsl(final SaslSslListener listener) {
            this.secure = listener;
            return this;
        }

        /** Any broker setting, applied to every node. */
        public Builder brokerConfig(final String key, final String value) {
            overrides.put(key, value);
            return this;
        }

        /**
         * Formats storage, starts every node and waits until all brokers serve metadata.
         *
         * @throws PortInUseException if the requested port is taken
         */
        public EmbeddedKafka start() {
            final long startNanos = System.nanoTime();
            final boolean tempDir = dataDir == null;
            final Path root;
            try {
                root = tempDir ? Files.createTempDirectory("fabric-twin-kafka-") : Files.createDirectories(dataDir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create Kafka data directory", e);
            }
            final List<KafkaRaftServer> started = new ArrayList<>();
            try {
                final int controllerPort = freePort();
                final List<Integer> ports = brokerPorts();
                final String clusterId = existingClusterId(root).orElseGet(() -> Uuid.randomUuid().toString());
                final int first = dedicatedController ? 1 : 0;
                final List<Properties> configs = new ArrayList<>();
                for (int node = 0; node < brokers + first; node++) {
                    final Path nodeDir = Files.createDirectories(root.resolve("node-" + node));
                    final Properties props = node < first ? controllerConfig(nodeDir, controllerPort)
                        : nodeConfig(node, nodeDir, ports.get(node - first), controllerPort, secure == null ? 0 : freePort());
                    if (!Files.exists(nodeDir.resolve(META_PROPERTIES))) { // a node restarts on its own data
                        format(node, clusterId, nodeDir, secure);
                    }
                    final KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
                    server.startup();
                    started.add(server);
                    configs.add(props);
                }
                awaitBrokers(ports);
                return new EmbeddedKafka(started, List.copyOf(configs), first, ports, root, tempDir,
                    Duration.ofNanos(System.nanoTime() - startNanos), secure);
            } catch (RuntimeException | IOException e) {
                for (int i = started.size() - 1; i >= 0; i--) {
                    started.get(i).shutdown();
                    started.get(i).awaitShutdown();
                }
                if (tempDir) {
                    deleteRecursively(root);
                }
                if (e instanceof RuntimeException re) {
                    throw re;
                }
                throw new UncheckedIOException("cannot start embedded Kafka", (IOException) e);
            }
        }

        private List<Integer> brokerPorts() throws IOException {
            final List<Integer> ports = new ArrayList<>();
            if (port != 0) {
                ensureFree(port);
                ports.add(port);
            }
            while (ports.size() < brokers) {
                ports.add(freePort());
            }
            return ports;
        }

        private Properties nodeConfig(final int node, final Path nodeDir, final int brokerPort, final int controllerPort,
                                      final int internalPort) {
            final Properties props = new Properties();
            final boolean controller = node == 0 && !dedicatedController;
            final String rf = Integer.toString(Math.min(3, brokers));
            props.put("node.id", Integer.toString(node));
            props.put("process.roles", controller ? "broker,controller" : "broker");
            quorum(props, controllerPort);
            final String brokerListener;
            if (secure == null) {
                props.put("inter.broker.listener.name", BROKER_LISTENER);
                props.put("listener.security.protocol.map",
                    BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
                brokerListener = BROKER_LISTENER + "://" + HOST + ":" + brokerPort;
            } else {
                props.put("inter.broker.listener.name", INTERNAL_LISTENER);
                props.put("listener.security.protocol.map", SECURE_LISTENER + ":SASL_SSL," + INTERNAL_LISTENER
                    + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
                brokerListener = SECURE_LISTENER + "://" + HOST + ":" + brokerPort + "," + INTERNAL_LISTENER + "://"
                    + HOST + ":" + internalPort;
                props.putAll(secure.brokerConfig(SECURE_LISTENER));
            }
            props.put("listeners", controller
                ? brokerListener + "," + CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort
                : brokerListener);
            props.put("advertised.listeners", brokerListener);
            props.put("log.dirs", nodeDir.toString());
            props.put("metadata.log.dir", nodeDir.toString());
            props.put("offsets.topic.replication.factor", rf);
            // topics created without a replication factor (Kafka Streams' changelogs and repartition topics) as a real
            // cluster has them: replicated, so a broker restart moves their leaders instead of taking them offline
            props.put("default.replication.factor", rf);
            props.put("offsets.topic.num.partitions", "5");
            props.put("transaction.state.log.replication.factor", rf);
            props.put("transaction.state.log.min.isr", Integer.toString(Math.min(2, brokers)));
            props.put("transaction.state.log.num.partitions", "5");
            props.put("share.coordinator.state.topic.replication.factor", rf);
            props.put("share.coordinator.state.topic.min.isr", Integer.toString(Math.min(2, brokers)));
            props.put("group.initial.rebalance.delay.ms", "0");
            props.put("auto.create.topics.enable", "false");
            // Sized for a laptop / 2-core CI box rather than a production server.
            props.put("num.network.threads", "2");
            props.put("num.io.threads", "2");
            props.put("background.threads", "2");
            props.put("log.cleaner.dedupe.buffer.size", "2097152");
            props.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
            props.put("server.max.startup.time.ms", Long.toString(TimeUnit.MINUTES.toMillis(2)));
            props.putAll(overrides);
            return props;
        }

        /** Node 0 as a controller only: the quorum's single voter, no client listener. */
        private Properties controllerConfig(final Path nodeDir, final int controllerPort) {
            final Properties props = new Properties();
            props.put("node.id", "0");
            props.put("process.roles", "controller");
            quorum(props, controllerPort);
            props.put("listener.security.protocol.map", CONTROLLER_LISTENER + ":PLAINTEXT");
            props.put("listeners", CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort);
            props.put("log.dirs", nodeDir.toString());
            props.put("metadata.log.dir", nodeDir.toString());
            props.put("num.io.threads", "2");
            props.put("num.network.threads", "2");
            props.put("background.threads", "2");
            return props;
        }

        private static void quorum(final Properties props, final int controllerPort) {
            props.put("controller.quorum.voters", "0@" + HOST + ":" + controllerPort);
            props.put("controller.listener.names", CONTROLLER_LISTENER);
            // a restarted broker registers again once its old session has expired: 9 s by default, 2 s here
            props.put("broker.session.timeout.ms", "2000");
            props.put("broker.heartbeat.interval.ms", "500");
        }

        /** The cluster id a data directory was formatted with (a restart keeps it), if any node was. */
        private static Optional<String> existingClusterId(final Path root) throws IOException {
            final Path meta = root.resolve("node-0").resolve(META_PROPERTIES);
            if (!Files.exists(meta)) {
                return Optional.empty();
            }
            final Properties p = new Properties();
            try (var in = Files.newInputStream(meta)) {
                p.load(in);
            }
            return Optional.ofNullable(p.getProperty("cluster.id"));
        }

        private static void format(final int node, final String clusterId, final Path nodeDir,
                                   final SaslSslListener secure) {
            try {
                new Formatter()
                    .setScramArguments(secure == null ? List.of() : List.of(secure.scramArgument()))
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(node)
                    .setClusterId(clusterId)
                    .setDirectories(List.of(nodeDir.toString()))
                    .setMetadataLogDirectory(nodeDir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    // transaction version 1: under version 2 (4.3.1) a broker restarted while a transaction was being
                    // ended left its marker missing on a partition for good — committed on every other partition, open
                    // there — and an exactly-once application cannot tell it from one to abort (AnalyzerChaosTest)
                    .setFeatureLevel("transaction.version", (short) 1)
                    .run();
            } catch (Exception e) {
                throw new IllegalStateException("cannot format Kafka storage for node " + node + ": " + e.getMessage(), e);
            }
        }

        private void awaitBrokers(final List<Integer> ports) {
            try (Admin admin = Admin.create(adminConfig(HOST + ":" + ports.get(0), secure))) {
                awaitCondition("embedded Kafka did not become ready",
                    () -> admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == brokers);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
            return socket.getLocalPort();
        }
    }

    static void ensureFree(final int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
        } catch (IOException e) {
            throw new PortInUseException(port);
        }
    }

    private static void deleteRecursively(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
