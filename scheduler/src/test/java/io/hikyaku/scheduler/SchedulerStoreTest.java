package io.hikyaku.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tick's fire records applied together, written with one force, and replayed from the log. */
class SchedulerStoreTest {

    private static final String ACCOUNT = "000000000000";
    private static final String TARGET = "{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:q\",\"RoleArn\":\"arn:aws:iam::000000000000:role/r\"}";

    @TempDir
    Path dir;

    @Test
    void theRecordsOfATickSurviveAReopenAndARefusedOneIsLeftOut() throws Exception {
        String digest;
        try (SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(dir))) {
            for (String name : List.of("a", "b")) {
                store.apply(new SchedulerCommand.PutSchedule(ACCOUNT, null, true, new ScheduleDefinition("default", name,
                        "rate(1 minute)", "UTC", null, null, "ENABLED", null, 0, "NONE", null, TARGET, null), 1_000));
            }
            String a = "arn:aws:scheduler:us-east-1:000000000000:schedule/default/a";
            String b = "arn:aws:scheduler:us-east-1:000000000000:schedule/default/b";
            store.applyAll(List.of(new SchedulerCommand.Fired(ACCOUNT, a, 1_000, false),
                    new SchedulerCommand.DeleteSchedule(ACCOUNT, "default", "missing"), // refused: not written
                    new SchedulerCommand.Fired(ACCOUNT, b, 1_000, true)));
            List<Schedule> left = store.read(s -> s.schedules(ACCOUNT));
            assertThat(left).extracting(s -> s.arn).containsExactly(a);
            long lastFired = store.read(s -> s.byArn(a).lastFired);
            assertThat(lastFired).isEqualTo(1_000);
            digest = store.digest();
        }
        try (SchedulerStore again = SchedulerStore.open("us-east-1", new SchedulerJournal(dir))) {
            assertThat(again.digest()).isEqualTo(digest);
        }
    }
}
