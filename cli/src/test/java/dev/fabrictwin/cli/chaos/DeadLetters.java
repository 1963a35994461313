package dev.fabrictwin.cli.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.Topics;

/**
 * The dead letters a run committed, as their reasons. The chaos input holds no bad record, so each one is a good
 * record the analysis set aside because of what happened around it (a send failing while a broker restarts, say):
 * a sample lost, its port's next interval spanning it.
 */
final class DeadLetters {

    private DeadLetters() {
    }

    static List<String> reasons(final Properties client, final Topics topics) {
        final List<String> out = new ArrayList<>();
        CommittedRecords.read(client, List.of(topics.deadLetter().name()), Duration.ofMinutes(1), r -> out.add(
            DeadLetter.from(r.headers()).map(d -> d.source() + " " + d.offset() + ": " + d.error())
                .orElse("a record without dead-letter headers at " + r.partition() + "@" + r.offset())));
        return out;
    }
}
