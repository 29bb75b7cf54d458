package io.hikyaku.cloudwatch;

/**
 * Where an alarm's actions go: the server implements it by publishing to its own SNS topics. Called
 * off the request and evaluation paths (one worker thread), once per action ARN of a state change.
 */
public interface AlarmNotifier {

    /** No actions executed: every one is recorded as failed in the alarm's history. */
    AlarmNotifier NONE = (account, topicArn, subject, message) -> "no SNS service on this server";

    /**
     * Publishes {@code message} (CloudWatch's alarm notification JSON) with {@code subject} to the SNS
     * topic {@code topicArn}, as account {@code accountId}.
     *
     * @return null when published, else why not (recorded in the alarm's history)
     */
    String publish(String accountId, String topicArn, String subject, String message);
}
