package io.hikyaku.sns;

import java.util.regex.Pattern;

/** SNS and SQS ARNs as SNS checks them: topics, subscriptions, queues and Lambda functions. */
final class SnsArns {

    private static final Pattern TOPIC_NAME = Pattern.compile("[0-9A-Za-z_-]{1,256}");
    private static final Pattern FIFO_TOPIC_NAME = Pattern.compile("[0-9A-Za-z_-]{1,251}\\.fifo");
    private static final Pattern QUEUE_ARN = Pattern.compile("arn:aws:sqs:[a-z0-9-]+:[0-9]{12}:[0-9A-Za-z_-]{1,80}(\\.fifo)?");
    private static final Pattern LAMBDA_ARN = Pattern.compile("arn:aws:lambda:[a-z0-9-]+:[0-9]{12}:function:[0-9A-Za-z_-]{1,64}(:[0-9A-Za-z_$-]+)?");

    private SnsArns() {
    }

    static String topicArn(String region, String account, String name) {
        return "arn:aws:sns:" + region + ":" + account + ":" + name;
    }

    static boolean isTopicName(String name, boolean fifo) {
        return fifo ? FIFO_TOPIC_NAME.matcher(name).matches() : TOPIC_NAME.matcher(name).matches();
    }

    static boolean isQueueArn(String arn) {
        return QUEUE_ARN.matcher(arn).matches();
    }

    static boolean isLambdaArn(String arn) {
        return LAMBDA_ARN.matcher(arn).matches();
    }

    /** The account field of an ARN (the fifth), or null. */
    static String account(String arn) {
        String[] parts = arn.split(":", 6);
        return parts.length == 6 ? parts[4] : null;
    }

    /** The resource field of an ARN (the sixth: a topic's name), or null. */
    static String topicName(String arn) {
        String[] parts = arn.split(":", 6);
        return parts.length == 6 ? parts[5] : null;
    }

    /** The topic ARN of a subscription ARN ({@code <topic ARN>:<uuid>}). */
    static String topicOfSubscription(String subscriptionArn) {
        return subscriptionArn.substring(0, subscriptionArn.lastIndexOf(':'));
    }

    /** Refuses what is not a topic ARN with SNS's texts for parameter {@code field}. */
    static void checkTopicArn(String arn, String field) throws SnsException {
        if (arn == null || arn.isEmpty()) {
            throw SnsException.invalidParameter(field);
        }
        int elements = arn.split(":", -1).length;
        if (elements < 6) {
            throw SnsException.invalidParameter(field + " Reason: An ARN must have at least 6 elements, not " + elements);
        }
        if (!arn.startsWith("arn:aws:sns:")) {
            throw SnsException.invalidParameter(field);
        }
    }
}
