package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.sse.MessageEncryption;
import io.hikyaku.api.sse.QueueSse;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.BatchOutcome;
import io.hikyaku.engine.Durable;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.SendResult;
import io.hikyaku.engine.VisibilityChange;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** SendMessage(Batch), DeleteMessage(Batch), ChangeMessageVisibility(Batch). */
final class MessageActions {

    private final EngineGate gate;
    private final Ids ids;
    private final Receiver receiver;
    private final java.util.function.Supplier<MessageEncryption> encryption;

    MessageActions(EngineGate gate, Ids ids, Receiver receiver, java.util.function.Supplier<MessageEncryption> encryption) {
        this.gate = gate;
        this.ids = ids;
        this.receiver = receiver;
        this.encryption = encryption;
    }

    /**
     * The sealer of a send to {@code queue} when it is encrypted at rest (SSE-SQS, SSE-KMS), else null; its
     * key checks run here (KMS.* errors). An unknown queue is refused here as the send would be.
     */
    private MessageEncryption.Sealer sealer(QueueRef queue, CallContext context) {
        MessageEncryption enc = encryption.get();
        if (!enc.enabled()) {
            return null;
        }
        QueueSse sse = QueueSse.of(gate.read((engine, now) -> engine.readQueueAttributes(queue, QueueSse.ATTRIBUTES)));
        return enc.sealer(sse, context);
    }

    CompletableFuture<ObjectNode> sendMessage(CallContext context, ApiRequest request, Input in) {
        MessageAttributesReader.checkBlobs(in);
        QueueRef queue = in.queue();
        SendMessage message = SendEntries.read(in, context, ids);
        MessageEncryption.Sealer sealer = sealer(queue, context);
        SendMessage stored = sealer == null ? message : sealer.seal(message);
        SendOnceKey once = context.sendOnce();
        return changeAndWake(queue, (engine, now) -> {
            Durable<SendResult> sent = gate.apply(once == null ? new Command.SendMessage(queue, stored, now)
                    : new Command.SendOnce(queue, stored, once.source(), once.generation(), once.position(), now));
            gate.pendingSends().add(sent.value().messageId(), sent.written()); // before the wake-up below receives it
            return sent;
        }).thenApply(result -> SendEntries.result(Json.object(), message, result));
    }

    CompletableFuture<ObjectNode> sendMessageBatch(CallContext context, ApiRequest request, Input in) {
        List<Input> raw = in.objectList("Entries");
        if (raw != null) {
            for (Input entry : raw) {
                MessageAttributesReader.checkBlobs(entry);
            }
        }
        QueueRef queue = in.queue();
        List<Input> entries = BatchRules.entries(in, "SendMessageBatchRequestEntry");
        long payload = 0;
        for (Input entry : entries) {
            payload += SendEntries.payloadBytes(entry);
        }
        BatchRules.checkPayload(payload);

        ArrayNode failed = Json.array();
        List<String> ids = new ArrayList<>();
        List<SendMessage> messages = new ArrayList<>();
        for (Input entry : entries) {
            String id = entry.string("Id");
            try {
                messages.add(SendEntries.read(entry, context, this.ids));
                ids.add(id);
            } catch (ApiException e) {
                wholeRequestIfSerialization(e);
                BatchRules.fail(failed, id, e);
            }
        }
        List<SendMessage> stored = messages.isEmpty() ? messages : sealAll(queue, context, ids, messages, failed);
        if (messages.isEmpty()) {
            gate.read((engine, now) -> engine.getQueue(queue)); // an unknown queue still answers QueueDoesNotExist
            return gate.afterWrites(BatchRules.result(Json.array(), failed));
        }
        return changeAndWake(queue, (engine, now) -> {
            Durable<List<BatchOutcome<SendResult>>> sent = gate.apply(new Command.SendMessageBatch(queue, stored, now));
            List<String> messageIds = new ArrayList<>(sent.value().size());
            for (BatchOutcome<SendResult> o : sent.value()) {
                if (o.ok()) {
                    messageIds.add(o.value().messageId());
                }
            }
            gate.pendingSends().add(messageIds, sent.written());
            return sent;
        }).thenApply(outcomes -> {
                    ArrayNode successful = Json.array();
                    for (int i = 0; i < outcomes.size(); i++) {
                        BatchOutcome<SendResult> o = outcomes.get(i);
                        if (o.ok()) {
                            ObjectNode s = successful.addObject();
                            s.put("Id", ids.get(i));
                            SendEntries.result(s, messages.get(i), o.value());
                        } else {
                            BatchRules.fail(failed, ids.get(i), EngineGate.translate(o.error()));
                        }
                    }
                    return BatchRules.result(successful, failed);
                });
    }

    /**
     * The stored form of a batch's messages (sealed when the queue is encrypted; the plaintext stays in
     * {@code messages} for the answer's MD5s). A KMS refusal fails each entry it concerns (per entry, as SQS
     * answers), which then leaves {@code ids} and {@code messages}.
     */
    private List<SendMessage> sealAll(QueueRef queue, CallContext context, List<String> ids, List<SendMessage> messages,
                                      ArrayNode failed) {
        MessageEncryption.Sealer sealer;
        try {
            sealer = sealer(queue, context);
        } catch (ApiException e) {
            if (!e.errorType().startsWith("Kms")) {
                throw e;
            }
            for (String id : ids) {
                BatchRules.fail(failed, id, e);
            }
            ids.clear();
            messages.clear();
            return messages;
        }
        if (sealer == null) {
            return messages;
        }
        List<SendMessage> stored = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            try {
                stored.add(sealer.seal(messages.get(i)));
            } catch (ApiException e) {
                if (!e.errorType().startsWith("Kms")) {
                    throw e;
                }
                BatchRules.fail(failed, ids.remove(i), e);
                messages.remove(i--);
            }
        }
        return stored;
    }

    CompletableFuture<ObjectNode> deleteMessage(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        String handle = in.requiredString("ReceiptHandle");
        return changeAndWake(queue, (engine, now) -> gate.<Void>apply(new Command.DeleteMessage(queue, handle, now)))
                .thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> deleteMessageBatch(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        List<Input> entries = BatchRules.entries(in, "DeleteMessageBatchRequestEntry");
        ArrayNode failed = Json.array();
        List<String> ids = new ArrayList<>();
        List<String> handles = new ArrayList<>();
        for (Input entry : entries) {
            String id = entry.string("Id");
            try {
                handles.add(entry.requiredString("ReceiptHandle"));
                ids.add(id);
            } catch (ApiException e) {
                wholeRequestIfSerialization(e);
                BatchRules.fail(failed, id, e);
            }
        }
        return changeAndWake(queue, (engine, now) -> gate.<List<BatchOutcome<Void>>>apply(new Command.DeleteMessageBatch(queue, handles, now)))
                .thenApply(outcomes -> voidBatchResult(ids, outcomes, failed));
    }

    CompletableFuture<ObjectNode> changeMessageVisibility(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        String handle = in.requiredString("ReceiptHandle");
        int timeout = visibilityTimeout(in);
        return changeAndWake(queue, (engine, now) -> gate.<Void>apply(new Command.ChangeVisibility(queue, handle, timeout, now)))
                .thenApply(v -> Json.object());
    }

    CompletableFuture<ObjectNode> changeMessageVisibilityBatch(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        List<Input> entries = BatchRules.entries(in, "ChangeMessageVisibilityBatchRequestEntry");
        ArrayNode failed = Json.array();
        List<String> ids = new ArrayList<>();
        List<VisibilityChange> changes = new ArrayList<>();
        for (Input entry : entries) {
            String id = entry.string("Id");
            try {
                changes.add(new VisibilityChange(entry.requiredString("ReceiptHandle"), visibilityTimeout(entry)));
                ids.add(id);
            } catch (ApiException e) {
                wholeRequestIfSerialization(e);
                BatchRules.fail(failed, id, e);
            }
        }
        return changeAndWake(queue, (engine, now) -> gate.<List<BatchOutcome<Void>>>apply(new Command.ChangeVisibilityBatch(queue, changes, now)))
                .thenApply(outcomes -> voidBatchResult(ids, outcomes, failed));
    }

    /**
     * Runs a change on the applier, then (same step) retries the queue's parked
     * receives, since sends and visibility changes can make messages visible, and a delete can
     * unlock a FIFO group (or free an in-flight slot). With no waiters the retry costs one lookup.
     */
    private <T> CompletableFuture<T> changeAndWake(QueueRef queue, EngineGate.Call<Durable<T>> change) {
        Completions completions = new Completions();
        List<Durable<T>> holder = new ArrayList<>(1);
        gate.step(() -> {
            long now = gate.now();
            holder.add(change.apply(gate.engine(), now));
            receiver.wake(queue, now, completions);
        });
        CompletableFuture<T> out = gate.whenDurable(holder.get(0));
        completions.run();
        return out;
    }

    private static int visibilityTimeout(Input in) {
        Long v = in.integer("VisibilityTimeout", Receiver.VISIBILITY_REASON);
        if (v == null) {
            throw Errors.missing("VisibilityTimeout");
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw Errors.invalidValue("VisibilityTimeout", v, Receiver.VISIBILITY_REASON);
        }
        return (int) (long) v;
    }

    private static ObjectNode voidBatchResult(List<String> ids, List<BatchOutcome<Void>> outcomes, ArrayNode failed) {
        ArrayNode successful = Json.array();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).ok()) {
                successful.addObject().put("Id", ids.get(i));
            } else {
                BatchRules.fail(failed, ids.get(i), EngineGate.translate(outcomes.get(i).error()));
            }
        }
        return BatchRules.result(successful, failed);
    }

    /** A body that does not deserialise fails the whole request, not one entry. */
    private static void wholeRequestIfSerialization(ApiException e) {
        if (e.errorType().equals("SerializationException")) {
            throw e;
        }
    }
}
