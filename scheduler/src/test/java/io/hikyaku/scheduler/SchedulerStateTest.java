package io.hikyaku.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulerStateTest {

    static ScheduleDefinition def(String group, String name, String expression, String token) {
        return new ScheduleDefinition(group, name, expression, "UTC", null, null, "ENABLED", null, 0, "NONE", null,
                "{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:q\",\"RoleArn\":\"arn:aws:iam::000000000000:role/r\"}", token);
    }

    @Test
    void createIsIdempotentByClientTokenElseConflict() throws SchedulerException {
        SchedulerState s = new SchedulerState("us-east-1");
        String arn = s.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("default", "a", "rate(1 hour)", "t1"), 1000));
        assertThat(arn).isEqualTo("arn:aws:scheduler:us-east-1:000000000000:schedule/default/a");
        assertThat(s.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("default", "a", "rate(1 hour)", "t1"), 2000))).isEqualTo(arn);
        assertThatThrownBy(() -> s.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("default", "a", "rate(1 hour)", "t2"), 3000)))
                .hasMessage("Schedule a already exists.").satisfies(e -> assertThat(((SchedulerException) e).status()).isEqualTo(409));
    }

    @Test
    void missingGroupAndScheduleAreNotFoundAndDeletingAGroupDeletesItsSchedules() throws SchedulerException {
        SchedulerState s = new SchedulerState("us-east-1");
        assertThatThrownBy(() -> s.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("g", "a", "rate(1 hour)", null), 1)))
                .hasMessage("Schedule group g does not exist.");
        s.apply(new SchedulerCommand.CreateGroup("000000000000", null, "g", Map.of("k", "v"), null, 1));
        s.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("g", "a", "rate(1 hour)", null), 1));
        assertThat(s.schedules("000000000000")).hasSize(1);
        s.apply(new SchedulerCommand.DeleteGroup("000000000000", "g"));
        assertThat(s.schedules("000000000000")).isEmpty();
        assertThatThrownBy(() -> s.schedule("000000000000", "default", "zz")).hasMessage("Schedule zz does not exist.");
        assertThatThrownBy(() -> s.apply(new SchedulerCommand.DeleteGroup("000000000000", "default")))
                .isInstanceOf(SchedulerException.class);
    }

    @Test
    void theLogRebuildsTheSameDigestAndATornTailIsCut(@TempDir Path dir) throws Exception {
        String digest;
        try (SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(dir))) {
            store.apply(new SchedulerCommand.CreateGroup("000000000000", null, "g", Map.of(), "tok", 5));
            store.apply(new SchedulerCommand.PutSchedule("000000000000", null, true, def("g", "a", "rate(1 hour)", null), 6));
            store.apply(new SchedulerCommand.Fired("000000000000", "arn:aws:scheduler:us-east-1:000000000000:schedule/g/a", 6, false));
            store.apply(new SchedulerCommand.Tag("000000000000", "arn:aws:scheduler:us-east-1:000000000000:schedule-group/g", Map.of("x", "y")));
            digest = store.digest();
        }
        Files.write(dir.resolve("scheduler/commands.log"), new byte[] {0, 0, 0, 40, 1, 2, 3, 4, '{'}, java.nio.file.StandardOpenOption.APPEND); // a torn frame
        try (SchedulerStore store = SchedulerStore.open("us-east-1", new SchedulerJournal(dir))) {
            assertThat(store.digest()).isEqualTo(digest);
            Map<String, String> tags = store.read(s -> s.tags("000000000000", "arn:aws:scheduler:us-east-1:000000000000:schedule-group/g"));
            assertThat(tags).containsEntry("x", "y");
            long last = store.read(s -> s.schedule("000000000000", "g", "a").lastFired);
            assertThat(last).isEqualTo(6);
        }
        try (SchedulerJournal journal = new SchedulerJournal(dir)) {
            assertThat(journal.load()).hasSize(4);
        }
        assertThat(List.of(digest)).hasSize(1);
    }
}
