package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.servicelog.StoreServiceLog;
import io.hikyaku.engine.store.MemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alarms kept as records of a service log: a restart keeps state and history; the JSON file of earlier versions. */
class AlarmsLogTest {

    private static final String ACCOUNT = "111111111111";
    private final FakeClock clock = new FakeClock(1_800_000_000_000L - 1_800_000_000_000L % 60_000 + 1_000);
    private final MetricReader reader = new MetricReader(new MetricHistory(0), new CustomMetrics(10, 10), clock);

    @TempDir
    Path dir;

    private Alarms open() throws Exception {
        Alarms alarms = new Alarms(reader, clock, dir.resolve(Alarms.FILE_NAME), 10, Alarms.INLINE);
        alarms.load();
        return alarms;
    }

    private static void put(Alarms alarms, String name) throws Exception {
        alarms.put(ACCOUNT, name, JsonCalls.JSON.readTree("{\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Sum\","
                + "\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\","
                + "\"TreatMissingData\":\"breaching\",\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}"));
    }

    @Test
    void aRestartKeepsEveryAlarmItsStateAndItsHistory() throws Exception {
        Alarms alarms = open();
        put(alarms, "depth");
        put(alarms, "gone");
        clock.advanceSeconds(60);
        assertThat(alarms.evaluateDue()).isTrue(); // breaching: both go to ALARM
        alarms.setState(ACCOUNT, "depth", "OK", "by hand", null);
        alarms.setActionsEnabled(ACCOUNT, java.util.List.of("depth"), false);
        alarms.delete(ACCOUNT, java.util.List.of("gone"));
        MetricAlarm before = alarms.find(ACCOUNT, "depth");
        int items = alarms.history(ACCOUNT).size();
        alarms.close();

        Alarms again = open();
        MetricAlarm after = again.find(ACCOUNT, "depth");
        assertThat(after.state).isEqualTo("OK");
        assertThat(after.stateReason).isEqualTo("by hand");
        assertThat(after.actionsEnabled).isFalse();
        assertThat(after.stateTransitionedMillis).isEqualTo(before.stateTransitionedMillis);
        assertThat(after.tags).containsEntry("k", "v");
        assertThat(again.find(ACCOUNT, "gone")).isNull();
        assertThat(again.history(ACCOUNT)).hasSize(items).extracting(AlarmHistoryItem::type)
                .containsExactly("ConfigurationUpdate", "ConfigurationUpdate", "StateUpdate", "StateUpdate", "StateUpdate",
                        "ConfigurationUpdate");
        assertThat(again.history(ACCOUNT)).isEqualTo(alarms.history(ACCOUNT));
        clock.advanceSeconds(60);
        assertThat(again.evaluateDue()).isTrue();
        assertThat(again.find(ACCOUNT, "depth").state).as("evaluates on after the restart").isEqualTo("ALARM");
        again.close();
        assertThat(open().find(ACCOUNT, "depth").state).isEqualTo("ALARM");
    }

    @Test
    void theJsonFileOfAnEarlierVersionIsMigratedOnceAndRenamed() throws Exception {
        Alarms memory = new Alarms(reader, clock, null, 10, Alarms.INLINE);
        put(memory, "old");
        memory.setState(ACCOUNT, "old", "ALARM", "was alarming", "{\"version\":\"1.0\"}");
        ObjectNode root = JsonCalls.JSON.createObjectNode(); // the format cloudwatch-alarms.json had
        root.put("format", 1);
        root.putArray("alarms").add(memory.find(ACCOUNT, "old").toJson());
        ArrayNode history = root.putObject("history").putArray(ACCOUNT);
        memory.history(ACCOUNT).forEach(i -> history.add(i.toJson()));
        Path json = dir.resolve(Alarms.JSON_FILE_NAME);
        Files.writeString(json, root.toString());

        Alarms migrated = open();
        assertThat(migrated.find(ACCOUNT, "old").state).isEqualTo("ALARM");
        assertThat(migrated.find(ACCOUNT, "old").stateReasonData).isEqualTo("{\"version\":\"1.0\"}");
        assertThat(migrated.history(ACCOUNT)).isEqualTo(memory.history(ACCOUNT));
        assertThat(json).doesNotExist();
        assertThat(dir.resolve(Alarms.JSON_FILE_NAME + ".migrated")).exists();
        assertThat(dir.resolve(Alarms.FILE_NAME)).exists();
        put(migrated, "new");
        migrated.close();

        Alarms again = open();
        assertThat(again.list(ACCOUNT)).extracting(a -> a.name).containsExactly("new", "old");
        assertThat(again.history(ACCOUNT)).hasSize(memory.history(ACCOUNT).size() + 1);
        again.close();
    }

    @Test
    void aMigrationInterruptedBeforeTheRenameIsNotAppliedTwice() throws Exception {
        Alarms first = open();
        put(first, "a");
        first.close();
        Files.writeString(dir.resolve(Alarms.JSON_FILE_NAME), "{\"format\":1,\"alarms\":[],\"history\":{}}");
        Alarms again = open(); // the log has records: the file was migrated already
        assertThat(again.list(ACCOUNT)).hasSize(1);
        assertThat(again.history(ACCOUNT)).hasSize(1);
        assertThat(dir.resolve(Alarms.JSON_FILE_NAME)).doesNotExist();
        again.close();
    }

    @Test
    void aNewLeaderReloadsTheAlarmsFromTheStoreKeptLog() throws Exception {
        MemoryStore store = new MemoryStore(); // stands for the replicated store every node applies
        Alarms leader = new Alarms(reader, clock, null, 10, Alarms.INLINE);
        leader.reload(new StoreServiceLog(store, Alarms.SERVICE, 1000));
        put(leader, "replicated");
        leader.setState(ACCOUNT, "replicated", "ALARM", "set", null);

        Alarms follower = new Alarms(reader, clock, null, 10, Alarms.INLINE);
        follower.active(false);
        clock.advanceSeconds(60);
        assertThat(follower.evaluateDue()).as("a node that does not lead does not evaluate").isFalse();
        follower.reload(new StoreServiceLog(store, Alarms.SERVICE, 1000));
        follower.active(true);
        assertThat(follower.find(ACCOUNT, "replicated").state).isEqualTo("ALARM");
        assertThat(follower.history(ACCOUNT)).isEqualTo(leader.history(ACCOUNT));
        put(follower, "second"); // continues the log after the leader's records
        Alarms third = new Alarms(reader, clock, null, 10, Alarms.INLINE);
        third.reload(new StoreServiceLog(store, Alarms.SERVICE, 1000));
        assertThat(third.list(ACCOUNT)).hasSize(2);
    }
}
