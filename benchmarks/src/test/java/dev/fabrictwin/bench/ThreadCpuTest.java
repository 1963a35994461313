package dev.fabrictwin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.bench.ThreadCpu.Group;

class ThreadCpuTest {

    @Test
    void anApplicationsThreadsAreToldApartByItsIdAndTheJvmsByTheirNativeNames() {
        final ThreadCpu cpu = new ThreadCpu("bench-analyzer-2");

        assertThat(cpu.javaGroup("bench-analyzer-2-5f0c-StreamThread-1")).isEqualTo(Group.STREAM_THREADS);
        assertThat(cpu.javaGroup("kafka-producer-network-thread | bench-analyzer-2-5f0c-StreamThread-1-producer"))
            .isEqualTo(Group.APP_CLIENTS);
        assertThat(cpu.javaGroup("fabric-twin-metrics")).isEqualTo(Group.APP_CLIENTS);
        assertThat(cpu.javaGroup("bench-analyzer-1-5f0c-StreamThread-1")).as("another pass's application").isNull();
        assertThat(cpu.javaGroup("data-plane-kafka-request-handler-0")).as("the broker's").isNull();
        assertThat(ThreadCpu.nativeGroup("C2 CompilerThre")).isEqualTo(Group.JIT);
        assertThat(ThreadCpu.nativeGroup("G1 Conc#0")).isEqualTo(Group.GC);
        assertThat(ThreadCpu.nativeGroup("VM Thread")).isEqualTo(Group.GC);
        assertThat(ThreadCpu.nativeGroup("bench-analyzer-")).as("a Java thread, by its Java name").isNull();
    }

    @Test
    void aStreamThreadsWorkIsBookedToItsGroupPerSample() throws Exception {
        assumeThat(ManagementFactory.getThreadMXBean().isThreadCpuTimeSupported()).isTrue();
        final ThreadCpu cpu = new ThreadCpu("app-7");
        final CountDownLatch burnt = new CountDownLatch(1);
        final CountDownLatch read = new CountDownLatch(1);
        final AtomicLong sink = new AtomicLong();
        final Thread busy = new Thread(() -> {
            final long until = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + 200_000_000L;
            long x = 1;
            while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < until) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink.set(x);
            burnt.countDown();
            try {
                read.await(); // alive while the snapshot is read: a thread that ended takes its time into the rest
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "app-7-1a2b-StreamThread-1");

        final ThreadCpu.Snapshot before = cpu.take();
        busy.start();
        assertThat(burnt.await(60, TimeUnit.SECONDS)).isTrue();
        final ThreadCpu.Snapshot after = cpu.take();
        read.countDown();
        busy.join();

        final Map<Group, Double> perSample = after.microsPerSampleSince(before, 1_000);
        assertThat(perSample.get(Group.STREAM_THREADS)).isBetween(200.0, 400.0);
        assertThat(ThreadCpu.instance(perSample)).isGreaterThanOrEqualTo(perSample.get(Group.STREAM_THREADS));
        assertThat(perSample.values()).allSatisfy(micros -> assertThat(micros).isNotNegative());
    }
}
