package io.hikyaku.engine;

/** One ChangeMessageVisibilityBatch entry. */
public record VisibilityChange(String receiptHandle, int visibilityTimeout) {}
