package io.hikyaku.engine;

/**
 * The parsed RedrivePolicy attribute (the api parses the JSON). {@code maxReceiveCount} null means
 * the JSON had none (the engine then rejects it as SQS does).
 */
public record RedrivePolicy(String deadLetterTargetArn, Integer maxReceiveCount) {}
