package dev.fabrictwin.cluster.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The scheduler readers on outputs other projects captured from real clusters (src/test/resources/refdata). */
class RealSchedulerOutputsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static String refdata(final String path) throws IOException {
        try (InputStream in = RealSchedulerOutputsTest.class.getResourceAsStream("/refdata/" + path)) {
            if (in == null) {
                throw new IOException("no fixture /refdata/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void squeueJsonOfSlurm21AndOfTheSetNumberSchemaInOneFile() throws Exception {
        final List<ScheduledJob> jobs = SlurmJobs.fromJson(JSON.readTree(refdata("rivos-slurm-exporter/squeue_out.json")));

        assertThat(jobs).extracting(ScheduledJob::id).containsExactly("26515966", "58948420");
        final ScheduledJob running = jobs.get(0);
        assertThat(running.name()).isEqualTo("job_name");
        assertThat(running.running()).isTrue();
        assertThat(running.hosts()).containsExactly("cs75");
        assertThat(running.startMs()).isEqualTo(1_684_114_921_000L);
        assertThat(running.endMs()).isEqualTo(1_686_633_833_000L);
        assertThat(running.metadata()).isEmpty(); // an empty comment is no metadata

        final ScheduledJob pending = jobs.get(1);
        assertThat(pending.state()).isEqualTo("PENDING");
        assertThat(pending.hosts()).isEmpty();
        assertThat(pending.startMs()).isNull();
        assertThat(pending.endMs()).isNull();

        final JobImport imported = JobImport.of(jobs, List.of(), JSON);
        assertThat(imported.report()).startsWith("jobs import: 1 running, 1 skipped");
        assertThat(imported.documents()).containsOnlyKeys("26515966");
        assertThat(imported.defaulted()).containsExactly("26515966");
    }
}
