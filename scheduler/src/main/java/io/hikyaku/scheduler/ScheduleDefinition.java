package io.hikyaku.scheduler;

/**
 * What a client defines of a schedule (CreateSchedule/UpdateSchedule body), already validated.
 *
 * @param startDate epoch millis or null
 * @param endDate epoch millis or null
 * @param flexibleWindowMinutes 0 for Mode OFF
 * @param targetJson the Target object as JSON text (Arn, RoleArn, Input, SqsParameters, RetryPolicy, DeadLetterConfig)
 */
public record ScheduleDefinition(String group, String name, String expression, String timezone, Long startDate,
                                 Long endDate, String state, String description, int flexibleWindowMinutes,
                                 String actionAfterCompletion, String kmsKeyArn, String targetJson, String clientToken) { }
