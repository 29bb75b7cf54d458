package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.PeekPage;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.concurrent.CompletableFuture;

/**
 * {@code Hikyaku.PeekMessages} (JSON only, its own target prefix): the console's message browser.
 * Input {@code QueueUrl}, optional {@code MaxNumberOfMessages} (1..10, default 10) and {@code Cursor}
 * (a previous answer's {@code NextCursor}). Output: {@code Messages} shaped as ReceiveMessage's, with
 * every system and message attribute and no ReceiptHandle (a peek delivers nothing, so nothing can
 * be deleted through it), and {@code NextCursor} while more may follow. Authorized as
 * {@code sqs:ReceiveMessage}: it reads what a receive would.
 */
final class PeekActions {

    static final String ACTION = "Hikyaku.PeekMessages";
    private static final String MAX_REASON = "Must be between 1 and 10, if provided.";
    private static final ReceiveSelection ALL = ReceiveSelection.of(new Input(Json.object()
            .<ObjectNode>set("MessageSystemAttributeNames", Json.array().add("All"))
            .set("MessageAttributeNames", Json.array().add("All")), WireProtocol.JSON));

    private final EngineGate gate;
    private final java.util.function.Supplier<io.hikyaku.api.sse.MessageEncryption> encryption;

    PeekActions(EngineGate gate, java.util.function.Supplier<io.hikyaku.api.sse.MessageEncryption> encryption) {
        this.gate = gate;
        this.encryption = encryption;
    }

    CompletableFuture<ObjectNode> peek(ApiRequest request, Input in) {
        QueueRef queue = in.queue();
        Long max = in.integer("MaxNumberOfMessages", MAX_REASON);
        if (max != null && (max < 1 || max > 10)) {
            throw Errors.invalidValue("MaxNumberOfMessages", max, MAX_REASON);
        }
        String cursor = in.string("Cursor");
        long from = parseCursor(cursor);
        int limit = max == null ? 10 : (int) (long) max;
        PeekPage page = gate.read((engine, now) -> engine.peekMessages(queue, from, limit, now));
        // sealed messages open as a receive's would (the console's caller needs kms:Decrypt on SSE-KMS keys)
        ObjectNode out = Receiver.render(ALL, io.hikyaku.api.sse.MessageEncryption.anySealed(page.messages())
                ? Receiver.open(encryption.get().opener(in.caller()), page.messages()) : page.messages());
        ArrayNode list = (ArrayNode) out.get("Messages");
        if (list != null) {
            list.forEach(m -> ((ObjectNode) m).remove("ReceiptHandle"));
        }
        if (page.nextSeq() != null) {
            out.put("NextCursor", Long.toString(page.nextSeq()));
        }
        return CompletableFuture.completedFuture(out);
    }

    private static long parseCursor(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return 1;
        }
        try {
            long seq = Long.parseLong(cursor);
            if (seq >= 1) {
                return seq;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw Errors.invalidParameter("Invalid cursor: " + cursor);
    }
}
