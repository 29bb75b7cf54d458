package io.hikyaku.scheduler;

/**
 * A schedule in the state: its definition, times, the scheduled time of its last fire (-1: never fired), and its
 * generation (the state's count of creates when it was created: a schedule deleted and created again under the
 * same name is a new generation, so its fires are not taken for repeats of the old one's).
 */
final class Schedule {
    final String arn;
    final String account;
    ScheduleDefinition definition;
    final long created;
    long modified;
    long lastFired = -1;
    final long generation;

    Schedule(String arn, String account, ScheduleDefinition definition, long created, long generation) {
        this.arn = arn;
        this.generation = generation;
        this.account = account;
        this.definition = definition;
        this.created = created;
        this.modified = created;
    }
}
