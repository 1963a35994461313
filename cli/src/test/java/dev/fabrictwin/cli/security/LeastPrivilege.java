package dev.fabrictwin.cli.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import dev.fabrictwin.contract.Topics;

/**
 * The ACLs each command needs and nothing more, as docs/security.md lists them. Topics are created by an operator
 * beforehand (no CREATE); every command checks at start that all of fabric-twin's topics exist, hence DESCRIBE on
 * those it neither reads nor writes (READ and WRITE imply DESCRIBE).
 */
final class LeastPrivilege {

    private LeastPrivilege() {
    }

    /** {@code analyze}: reads samples, topology and jobs; writes alerts, job health and dead letters; exactly once. */
    static List<AclBinding> analyze(final String user, final Topics t, final String applicationId) {
        final List<AclBinding> acls = new ArrayList<>();
        for (final String in : List.of(t.samples().name(), t.topology().name(), t.jobs().name())) {
            acls.add(allow(user, ResourceType.TOPIC, in, PatternType.LITERAL, AclOperation.READ));
        }
        for (final String out : List.of(t.alerts().name(), t.jobHealth().name(), t.deadLetter().name())) {
            acls.add(allow(user, ResourceType.TOPIC, out, PatternType.LITERAL, AclOperation.WRITE));
        }
        // Kafka Streams' own repartition and changelog topics, its consumer group and its transactional ids
        acls.add(allow(user, ResourceType.TOPIC, applicationId, PatternType.PREFIXED, AclOperation.ALL));
        acls.add(allow(user, ResourceType.GROUP, applicationId, PatternType.LITERAL, AclOperation.READ));
        acls.add(allow(user, ResourceType.TRANSACTIONAL_ID, applicationId, PatternType.PREFIXED, AclOperation.WRITE));
        return withDescribe(user, t, acls);
    }

    /** {@code simulate --bootstrap}: topology, jobs, the faults' truth and the samples. */
    static List<AclBinding> simulate(final String user, final Topics t) {
        final List<AclBinding> acls = new ArrayList<>();
        for (final String out : List.of(t.topology().name(), t.jobs().name(), t.truth().name(), t.samples().name())) {
            acls.add(allow(user, ResourceType.TOPIC, out, PatternType.LITERAL, AclOperation.WRITE));
        }
        return withDescribe(user, t, acls);
    }

    /** {@code ingest --file/--scrape --bootstrap}: samples and dead letters. */
    static List<AclBinding> ingest(final String user, final Topics t) {
        final List<AclBinding> acls = new ArrayList<>();
        for (final String out : List.of(t.samples().name(), t.deadLetter().name())) {
            acls.add(allow(user, ResourceType.TOPIC, out, PatternType.LITERAL, AclOperation.WRITE));
        }
        return withDescribe(user, t, acls);
    }

    /** Every command's topic check at start: DESCRIBE on each topic not granted otherwise. */
    private static List<AclBinding> withDescribe(final String user, final Topics t, final List<AclBinding> granted) {
        final List<AclBinding> acls = new ArrayList<>(granted);
        final var named = granted.stream().map(b -> b.pattern().name()).toList();
        t.all().stream().filter(s -> !named.contains(s.name())).forEach(s ->
            acls.add(allow(user, ResourceType.TOPIC, s.name(), PatternType.LITERAL, AclOperation.DESCRIBE)));
        return acls;
    }

    private static AclBinding allow(final String user, final ResourceType type, final String name,
                                    final PatternType pattern, final AclOperation op) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW));
    }

    /** The same ACLs as {@code kafka-acls.sh} commands: one per principal and resource, its operations together. */
    static List<String> kafkaAclsLines(final List<AclBinding> acls) {
        record Target(String principal, String resource) {
        }
        final Map<Target, List<String>> operations = new LinkedHashMap<>();
        for (final AclBinding b : acls) {
            final ResourcePattern r = b.pattern();
            final String resource = "--" + r.resourceType().name().toLowerCase(Locale.ROOT).replace('_', '-') + " "
                + r.name() + (r.patternType() == PatternType.PREFIXED ? " --resource-pattern-type prefixed" : "");
            final String op = b.entry().operation().name().toLowerCase(Locale.ROOT);
            operations.computeIfAbsent(new Target(b.entry().principal(), resource), k -> new ArrayList<>())
                .add(" --operation " + Character.toUpperCase(op.charAt(0)) + op.substring(1));
        }
        return operations.entrySet().stream()
            .map(e -> "kafka-acls.sh $ADMIN --add "
                + "--allow-principal " + e.getKey().principal() + String.join("", e.getValue()) + " " + e.getKey().resource())
            .toList();
    }
}
