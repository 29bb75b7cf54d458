package io.hikyaku.bench.client;

import java.util.ArrayList;
import java.util.List;

/**
 * The fields of an SQS answer the scenarios read, pulled out by ReplyParser without building a
 * tree: Messages[].Body and ReceiptHandle, Successful[].Id, Failed[] entries, MessageId, QueueUrl,
 * and an error's __type and message. Absent fields are null or empty.
 */
public final class SqsReply {
    private final int status;
    private final String text;
    String messageId;
    String queueUrl;
    String errorType;
    String errorMessage;
    final List<String> bodies = new ArrayList<>(10);
    final List<String> receiptHandles = new ArrayList<>(10);
    final List<String> successfulIds = new ArrayList<>(10);
    /** Each Failed[] entry as compact JSON, for the error report. */
    final List<String> failed = new ArrayList<>(0);

    /** text is the answer's start as text, kept only for error reports (null otherwise). */
    SqsReply(int status, String text) {
        this.status = status;
        this.text = text;
    }

    public int status() {
        return status;
    }

    public boolean ok() {
        return status == 200;
    }

    public String messageId() {
        return messageId;
    }

    public String queueUrl() {
        return queueUrl;
    }

    public String errorType() {
        return errorType;
    }

    public String errorMessage() {
        return errorMessage;
    }

    /** Messages[i].Body (null when a message has none), one per received message. */
    public List<String> bodies() {
        return bodies;
    }

    /** Messages[i].ReceiptHandle ("" when a message has none), parallel to bodies(). */
    public List<String> receiptHandles() {
        return receiptHandles;
    }

    public List<String> successfulIds() {
        return successfulIds;
    }

    public List<String> failed() {
        return failed;
    }

    /** The answer's start as text when it was an error or not JSON, else null. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return status + " " + (text == null ? "" : text);
    }
}
