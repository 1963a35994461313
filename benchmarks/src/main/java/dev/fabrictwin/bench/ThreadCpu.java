package dev.fabrictwin.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The process's CPU time by thread group, for a bench that runs an analyzer beside its own broker: what the
 * analyzer's instance spends per sample is its own threads and the collector's, not the in-process broker's (a
 * deployment's brokers are machines of their own) nor the JIT compiler's (an always-on instance's code settles).
 * Java threads are told apart by name (ThreadMXBean, nanoseconds), the JVM's own compiler and collector threads by
 * their native names in {@code /proc/self/task} (Linux; elsewhere they fall into {@link Group#REST}). A thread that
 * ends between two snapshots takes its time into {@link Group#REST}: the process total is read whole.
 */
final class ThreadCpu {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Pattern STREAM_THREAD = Pattern.compile(".*-StreamThread-\\d+");

    /** Where a thread's CPU is booked. */
    enum Group {
        /** Kafka Streams' stream threads of the application: the topology's processors, its consumers and serdes. */
        STREAM_THREADS("streamThreads", "stream threads"),
        /** The application's other threads: its producers' and admin's network I/O, heartbeats, metrics, guards. */
        APP_CLIENTS("appClients", "its clients' I/O and other threads"),
        /** The garbage collector and the VM thread (safepoints), which the instance and the broker share. */
        GC("gc", "GC and VM"),
        /** The JIT compilers. */
        JIT("jit", "JIT compiler"),
        /** The rest of the process: the in-process broker, the bench's own reader and anything that ended. */
        REST("brokerAndRest", "broker and the rest");

        /** Its name in {@code --json} figures. */
        final String key;
        final String label;

        Group(final String key, final String label) {
            this.key = key;
            this.label = label;
        }
    }

    /** CPU nanoseconds by group at one moment. */
    record Snapshot(Map<Group, Long> nanos) {
        /** What each group spent from {@code before} to this one, per {@code samples}, in microseconds. */
        Map<Group, Double> microsPerSampleSince(final Snapshot before, final double samples) {
            final Map<Group, Double> per = new EnumMap<>(Group.class);
            for (final Group g : Group.values()) {
                // the rest is the process total (counted in 10 ms clock ticks) less the threads' (in ns): never below 0
                final long spent = nanos.get(g) - before.nanos.get(g);
                per.put(g, (g == Group.REST ? Math.max(0, spent) : spent) / 1e3 / samples);
            }
            return per;
        }
    }

    /** Per sample, every group unknown: a span with fewer than two snapshots. */
    static Map<Group, Double> unmeasured() {
        final Map<Group, Double> per = new EnumMap<>(Group.class);
        for (final Group g : Group.values()) {
            per.put(g, Double.NaN);
        }
        return per;
    }

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final String applicationId;

    /** Groups the threads of the Kafka Streams application {@code applicationId} (its threads carry the id). */
    ThreadCpu(final String applicationId) {
        this.applicationId = applicationId;
    }

    Snapshot take() {
        final Map<Group, Long> nanos = new EnumMap<>(Group.class);
        for (final Group g : Group.values()) {
            nanos.put(g, 0L);
        }
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            final Group g = javaGroup(info.getThreadName());
            final long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (g != null && cpu > 0) {
                nanos.merge(g, cpu, Long::sum);
            }
        }
        nativeThreads().forEach((g, cpu) -> nanos.merge(g, cpu, Long::sum));
        final long process = processNanos();
        final long grouped = nanos.values().stream().mapToLong(Long::longValue).sum();
        nanos.put(Group.REST, Math.max(0, process - grouped));
        return new Snapshot(nanos);
    }

    /** The process's CPU time, all its threads' (those that ended included), in 10 ms clock ticks on Linux. */
    static long processNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    }

    /** The group of a Java thread, or null for the rest (the broker's, the bench's). */
    Group javaGroup(final String name) {
        if (name.startsWith("fabric-twin-metrics") || name.startsWith("previous-transactions")) {
            return Group.APP_CLIENTS; // the analyzer's own threads, named without the application's id
        }
        if (!name.contains(applicationId)) {
            return null;
        }
        // a stream thread is "<application id>-<process id>-StreamThread-<n>"; its clients' threads name it after " | "
        return name.startsWith(applicationId) && STREAM_THREAD.matcher(name).matches() ? Group.STREAM_THREADS
            : Group.APP_CLIENTS;
    }

    /** The group of a JVM thread by its native name, or null for a Java thread (named in /proc by its Java name). */
    static Group nativeGroup(final String comm) {
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return Group.JIT;
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")) {
            return Group.GC;
        }
        return null;
    }

    /** The JVM's compiler and collector threads' CPU from {@code /proc/self/task/N/schedstat}; none off Linux. */
    private static Map<Group, Long> nativeThreads() {
        final Map<Group, Long> nanos = new HashMap<>();
        if (!Files.isDirectory(TASKS)) {
            return nanos;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (final Path task : tasks) {
                try {
                    final Group g = nativeGroup(Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip());
                    if (g != null) {
                        final String schedstat = Files.readString(task.resolve("schedstat"), StandardCharsets.UTF_8);
                        nanos.merge(g, Long.parseLong(schedstat.substring(0, schedstat.indexOf(' '))), Long::sum);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read: its time is in the process total, so in REST
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return nanos;
    }

    /** "instance 12.3 us (stream threads 9.6, …); broker and the rest 3.9, JIT compiler 1.6". */
    static String describe(final Map<Group, Double> perSample) {
        return String.format(Locale.ROOT, "instance %.1f us (%s %.1f, %s %.1f, %s %.1f); %s %.1f, %s %.1f",
            instance(perSample), Group.STREAM_THREADS.label, perSample.get(Group.STREAM_THREADS), Group.APP_CLIENTS.label,
            perSample.get(Group.APP_CLIENTS), Group.GC.label, perSample.get(Group.GC), Group.REST.label,
            perSample.get(Group.REST), Group.JIT.label, perSample.get(Group.JIT));
    }

    /** The instance's own CPU per sample: its threads and the collector (conservatively all of the collector's). */
    static double instance(final Map<Group, Double> perSample) {
        return perSample.get(Group.STREAM_THREADS) + perSample.get(Group.APP_CLIENTS) + perSample.get(Group.GC);
    }
}
