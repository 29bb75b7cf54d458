package io.hikyaku.scheduler;

import io.hikyaku.api.sse.KeyCaller;

/**
 * A schedule's execution role ({@code Target.RoleArn}) at fire time, as AWS decides it when it invokes a target
 * (not at CreateSchedule): the role must exist, its trust policy must let {@code scheduler.amazonaws.com} assume it
 * (with {@code aws:SourceAccount} and {@code aws:SourceArn} = the schedule group's ARN), and its policies must allow
 * the send. A refusal is a target error: counted, retried by the retry policy, then the dead-letter queue.
 */
public interface ExecutionRoles {

    /** Without authentication ({@code --auth none}): every role may send everywhere. */
    ExecutionRoles UNCHECKED = new ExecutionRoles() {
        @Override
        public String sendDenial(String roleArn, String scheduleArn, String queueArn) {
            return null;
        }

        @Override
        public String publishDenial(String roleArn, String scheduleArn, String topicArn) {
            return null;
        }

        @Override
        public KeyCaller keyCaller(String roleArn, String scheduleArn) {
            return null;
        }
    };

    /** Null when the role may {@code sqs:SendMessage} to {@code queueArn} for this schedule, else why not. */
    String sendDenial(String roleArn, String scheduleArn, String queueArn);

    /** Null when the role may {@code sns:Publish} to {@code topicArn} for this schedule, else why not. */
    String publishDenial(String roleArn, String scheduleArn, String topicArn);

    /** How the role's use of an SSE-KMS queue's key is authorized, or null when every use is allowed. */
    KeyCaller keyCaller(String roleArn, String scheduleArn);
}
