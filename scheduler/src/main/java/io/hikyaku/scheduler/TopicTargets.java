package io.hikyaku.scheduler;

/**
 * SNS topics of this server as schedule targets (the welcome extension): a fire publishes {@code Input} as
 * the message. The server implements it over its SNS service's Publish.
 */
public interface TopicTargets {

    /** No SNS on this server (unit tests, a cluster): every publish fails as a target error. */
    TopicTargets NONE = (account, topicArn, message) -> "SNS is not running on this server";

    /** Publishes {@code message} to {@code topicArn} in the topic's {@code account}; null when published, else why not. */
    String publish(String account, String topicArn, String message);
}
