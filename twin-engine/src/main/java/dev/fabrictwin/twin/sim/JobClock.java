package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * The jobs' clock: each job's phases (compute, then comm, iteration after iteration), their events, the analyzer's
 * retiming of a next comm phase, compute jitter from each job's seeded stream, and the iterations completed.
 */
final class JobClock implements Serializable {

    private final EventQueue events;
    private final long seed;
    private final List<JobState> jobs = new ArrayList<>();
    private final Map<String, JobState> jobsById = new HashMap<>();
    private final List<IterationRecord> iterations = new ArrayList<>();
    private double computeJitter;

    JobClock(final EventQueue events, final long seed) {
        this.events = events;
        this.seed = seed;
    }

    JobState register(final PlacedJob j) {
        final JobState s = new JobState(j, new SplitMix(seed ^ (j.id().hashCode() * 0x9E3779B97F4A7C15L)));
        jobs.add(s);
        jobsById.put(j.id(), s);
        return s;
    }

    /** The job of this id, which must be known. */
    JobState job(final String id) {
        final JobState j = jobsById.get(id);
        if (j == null) {
            throw new IllegalArgumentException("unknown job '" + id + "'");
        }
        return j;
    }

    /** The job of this id, or null. */
    JobState find(final String id) {
        return jobsById.get(id);
    }

    /** The job an event refers to. */
    JobState at(final int ref) {
        return jobs.get(ref);
    }

    /** Every job registered, ended ones too, in registration order. */
    List<JobState> all() {
        return jobs;
    }

    void setComputeJitter(final double fraction) {
        computeJitter = fraction;
    }

    /** Schedules the job's first iteration (background traffic: its first draw) and its end, if it has one. */
    void scheduleFirstIteration(final JobState j, final double now) {
        final JobSpec spec = j.job.spec();
        final int ref = jobs.indexOf(j);
        if (spec.pattern() == Pattern.BACKGROUND) {
            events.schedule(j.phaseOffset, EventKind.BACKGROUND_TICK, ref);
        } else {
            j.computeStart = j.phaseOffset;
            events.schedule(j.phaseOffset + spec.computeSeconds(), EventKind.COMM_START, ref);
        }
        if (j.endAt < Double.POSITIVE_INFINITY) {
            events.schedule(Math.max(j.endAt, now), EventKind.JOB_END, ref);
        }
    }

    /** The job ends at {@code at}, an instant still ahead. */
    void scheduleEnd(final JobState j, final double at) {
        j.endAt = Math.min(j.endAt, at);
        events.schedule(at, EventKind.JOB_END, jobs.indexOf(j));
    }

    /** The job has ended now: no further phase, draw or end of it is pending. */
    void ended(final JobState j, final double now) {
        j.ended = true;
        j.endedAt = now;
        final int ref = jobs.indexOf(j);
        events.cancel(e -> e.ref() == ref && (e.kind() == EventKind.COMM_START
            || e.kind() == EventKind.BACKGROUND_TICK || e.kind() == EventKind.JOB_END));
        j.active = 0;
        j.inComm = false;
    }

    /** Whether the job runs at simulated time {@code t}: started by then, and not ended by then. */
    boolean isRunning(final String jobId, final double t) {
        final JobState j = jobsById.get(jobId);
        return j != null && t + EventQueue.EPS_SECONDS >= j.phaseOffset && t < j.endAt
            && !(j.ended && t >= j.endedAt);
    }

    void startComm(final JobState j, final double now) {
        j.inComm = true;
        j.commStart = now;
    }

    /** The job's comm phase ends now: its iteration is recorded and its next compute phase (jittered) begins. */
    void endComm(final JobState j, final double now) {
        j.inComm = false;
        iterations.add(new IterationRecord(j.job.id(), j.iteration++, j.computeStart, j.commStart, now));
        j.lastCommSeconds = now - j.commStart;
        j.computeStart = now;
        final double drift = computeJitter > 0 ? Math.max(-0.5, computeJitter * gaussian(j.random)) : 0;
        events.schedule(now + j.job.spec().computeSeconds() * (1 + drift), EventKind.COMM_START, jobs.indexOf(j));
    }

    /** Moves the job's next comm phase to {@code at} (never before now); false, changing nothing, while it cannot. */
    boolean retimeNextComm(final JobState j, final double at, final double now) {
        if (j.ended || j.inComm || j.job.spec().pattern() == Pattern.BACKGROUND) {
            return false;
        }
        final int ref = jobs.indexOf(j);
        events.cancel(e -> e.kind() == EventKind.COMM_START && e.ref() == ref);
        events.schedule(Math.max(at, now), EventKind.COMM_START, ref);
        return true;
    }

    /** When the job's pending comm phase starts, or NaN while it is in one or has none pending. */
    double nextCommStart(final JobState j) {
        return events.earliest(EventKind.COMM_START, jobs.indexOf(j));
    }

    /** Background traffic's next draw: each host sends to a random other host, on a random one of its NICs. */
    void redraw(final JobState j, final double now, final int ref) {
        final PlacedJob placed = j.job;
        final List<Transfer> next = new ArrayList<>();
        final int hosts = placed.hosts().size();
        final int k = placed.ranks().size() / hosts;
        for (int h = 0; h < hosts && hosts > 1; h++) {
            int peer = j.random.nextInt(hosts - 1);
            if (peer >= h) {
                peer++;
            }
            final int nic = j.random.nextInt(k);
            next.add(new Transfer(placed.ranks().get(h * k + nic), placed.ranks().get(peer * k + nic),
                placed.spec().bytesPerIteration()));
        }
        j.job = new PlacedJob(placed.spec(), placed.hosts(), placed.ranks(), next);
        events.schedule(now + j.job.spec().periodSeconds(), EventKind.BACKGROUND_TICK, ref);
    }

    List<IterationRecord> iterations() {
        return List.copyOf(iterations);
    }

    /** Forgets the iterations whose comm phase ended before {@code t}. */
    void forgetBefore(final double t) {
        iterations.removeIf(r -> r.commEnd() < t);
    }

    /** Standard normal from a seeded stream (Box–Muller), so drift is reproducible. */
    private static double gaussian(final SplitMix random) {
        final double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
