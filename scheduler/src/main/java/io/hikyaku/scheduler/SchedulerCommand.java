package io.hikyaku.scheduler;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * A change to the Scheduler state, as data: the time ({@code atMillis}) and the caller's account travel in the
 * command, so replaying the log rebuilds the same state and apply never reads a clock.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = SchedulerCommand.CreateGroup.class, name = "CreateGroup"),
    @JsonSubTypes.Type(value = SchedulerCommand.DeleteGroup.class, name = "DeleteGroup"),
    @JsonSubTypes.Type(value = SchedulerCommand.PutSchedule.class, name = "PutSchedule"),
    @JsonSubTypes.Type(value = SchedulerCommand.DeleteSchedule.class, name = "DeleteSchedule"),
    @JsonSubTypes.Type(value = SchedulerCommand.Tag.class, name = "Tag"),
    @JsonSubTypes.Type(value = SchedulerCommand.Untag.class, name = "Untag"),
    @JsonSubTypes.Type(value = SchedulerCommand.Fired.class, name = "Fired"),
})
public sealed interface SchedulerCommand {

    String account();

    record CreateGroup(String account, String region, String name, Map<String, String> tags, String clientToken,
                       long atMillis) implements SchedulerCommand { }

    record DeleteGroup(String account, String name) implements SchedulerCommand { }

    /** CreateSchedule ({@code create}) or UpdateSchedule: the whole definition, validated by the API before. */
    record PutSchedule(String account, String region, boolean create, ScheduleDefinition definition, long atMillis)
            implements SchedulerCommand { }

    record DeleteSchedule(String account, String group, String name) implements SchedulerCommand { }

    record Tag(String account, String resourceArn, Map<String, String> tags) implements SchedulerCommand { }

    record Untag(String account, String resourceArn, List<String> keys) implements SchedulerCommand { }

    /** A fire of {@code scheduledMillis} was sent; the schedule is deleted when {@code delete} (completed, DELETE). */
    record Fired(String account, String scheduleArn, long scheduledMillis, boolean delete) implements SchedulerCommand { }
}
