package io.hikyaku.server.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.server.QueueDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@code AWS::SQS::Queue} resource as a start-up queue of the default account: its properties are
 * SQS attributes of the same names, {@code RedrivePolicy} names its dead-letter queue (a queue of the
 * template or of the server, by ARN in the default account), {@code Tags} are the queue's tags.
 */
final class SamQueue {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> ATTRIBUTES = Set.of("ContentBasedDeduplication", "DeduplicationScope",
            "DelaySeconds", "FifoQueue", "FifoThroughputLimit", "KmsDataKeyReusePeriodSeconds", "KmsMasterKeyId",
            "MaximumMessageSize", "MessageRetentionPeriod", "ReceiveMessageWaitTimeSeconds", "SqsManagedSseEnabled",
            "VisibilityTimeout");

    private SamQueue() {}

    static QueueDefinition definition(SamIntrinsics in, String id) {
        String where = "Resources." + id + ".Properties";
        String source = in.source();
        String name = in.queueNameAt(where + ".QueueName", id);
        Map<String, String> attributes = new LinkedHashMap<>();
        Map<String, String> tags = new LinkedHashMap<>();
        String deadLetterQueue = null;
        Integer maxReceiveCount = null;
        for (Map.Entry<String, Object> e : in.properties(id).entrySet()) {
            String key = e.getKey();
            String at = where + "." + key;
            if (key.equals("QueueName") || e.getValue() == null) {
                continue;
            }
            Object value = in.deep(at, e.getValue());
            if (ATTRIBUTES.contains(key)) {
                attributes.put(key, SamTemplate.text(source, at, value));
            } else if (key.equals("RedriveAllowPolicy")) {
                attributes.put(key, value instanceof Map<?, ?> ? JSON.valueToTree(value).toString() : SamTemplate.text(source, at, value));
            } else if (key.equals("RedrivePolicy")) {
                Map<String, Object> policy = value instanceof Map<?, ?> ? SamTemplate.map(source, at, value) : parse(source, at, value);
                String target = SamTemplate.text(source, at + ".deadLetterTargetArn", policy.get("deadLetterTargetArn"));
                String prefix = "arn:aws:sqs:" + in.text(at, Map.of("Ref", "AWS::Region")) + ":" + in.text(at, Map.of("Ref", "AWS::AccountId")) + ":";
                if (!target.startsWith(prefix)) {
                    throw new ConfigException(source + ": " + at + ".deadLetterTargetArn: must be a queue of the server's default "
                            + "account and region (" + prefix + "NAME): " + target);
                }
                deadLetterQueue = target.substring(prefix.length());
                maxReceiveCount = SamTemplate.integer(source, at + ".maxReceiveCount",
                        SamTemplate.text(source, at + ".maxReceiveCount", policy.get("maxReceiveCount")));
            } else if (key.equals("Tags")) {
                Object tagList = value;
                if (!(tagList instanceof List<?> list)) {
                    throw new ConfigException(source + ": " + at + ": must be a list of Key and Value");
                }
                for (Object t : list) {
                    Map<String, Object> tag = SamTemplate.map(source, at, t);
                    tags.put(SamTemplate.text(source, at + ".Key", tag.get("Key")), SamTemplate.text(source, at + ".Value", tag.get("Value")));
                }
            } else {
                throw new ConfigException(source + ": " + at + ": not a property of AWS::SQS::Queue that Hikyaku knows");
            }
        }
        try {
            return new QueueDefinition(name, attributes, tags, deadLetterQueue, maxReceiveCount);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source + ": Resources." + id + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> parse(String source, String where, Object value) {
        try {
            return SamIntrinsics.cast(JSON.readValue(SamTemplate.text(source, where, value), Map.class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ConfigException(source + ": " + where + ": not a JSON object: " + value, e);
        }
    }
}
