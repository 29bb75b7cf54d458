package io.hikyaku.scheduler;

/** A schedule in the state: its definition, times, and the scheduled time of its last fire (-1: never fired). */
final class Schedule {
    final String arn;
    final String account;
    ScheduleDefinition definition;
    final long created;
    long modified;
    long lastFired = -1;

    Schedule(String arn, String account, ScheduleDefinition definition, long created) {
        this.arn = arn;
        this.account = account;
        this.definition = definition;
        this.created = created;
        this.modified = created;
    }
}
