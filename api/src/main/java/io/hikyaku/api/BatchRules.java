package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Whole-request rules shared by the three batch actions (sqs-behaviours 51-55). */
final class BatchRules {

    static final int MAX_ENTRIES = 10;
    static final int MAX_PAYLOAD_BYTES = 1_048_576;

    private BatchRules() {}

    /**
     * The entries of {@code input}, checked: at least one (EmptyBatchRequest), at most ten
     * (TooManyEntriesInBatchRequest), valid ids (InvalidBatchEntryId), distinct ids
     * (BatchEntryIdsNotDistinct, naming the first repeated id).
     */
    static List<Input> entries(Input input, String entryShape) {
        List<Input> entries = input.objectList("Entries");
        if (entries == null || entries.isEmpty()) {
            throw new ApiException("EmptyBatchRequest",
                    "There should be at least one " + entryShape + " in the request.");
        }
        if (entries.size() > MAX_ENTRIES) {
            throw new ApiException("TooManyEntriesInBatchRequest",
                    "Maximum number of entries per request are " + MAX_ENTRIES + ". You have sent " + entries.size() + ".");
        }
        for (Input entry : entries) {
            String id = entry.string("Id");
            if (id == null || !isValidId(id)) {
                throw new ApiException("InvalidBatchEntryId", "A batch entry id can only contain alphanumeric "
                        + "characters, hyphens and underscores. It can be at most 80 letters long.");
            }
        }
        Set<String> seen = new HashSet<>();
        for (Input entry : entries) {
            String id = entry.string("Id");
            if (!seen.add(id)) {
                throw new ApiException("BatchEntryIdsNotDistinct", "Id " + id + " repeated.");
            }
        }
        return entries;
    }

    static boolean isValidId(String id) {
        if (id.isEmpty() || id.length() > 80) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    static void checkPayload(long totalBytes) {
        if (totalBytes > MAX_PAYLOAD_BYTES) {
            throw new ApiException("BatchRequestTooLong", "Batch requests cannot be longer than "
                    + MAX_PAYLOAD_BYTES + " bytes. You have sent " + totalBytes + " bytes.");
        }
    }

    /** A Failed entry: {Id, SenderFault, Code, Message}; Code is the error's Query-style code. */
    static void fail(ArrayNode failed, String id, ApiException error) {
        ObjectNode f = failed.addObject();
        f.put("Id", id);
        f.put("SenderFault", !error.errorType().equals("InternalError"));
        f.put("Code", entryCode(error.errorType()));
        f.put("Message", error.getMessage());
    }

    /** Entry codes are the short SQS codes, as real SQS writes them in both protocols. */
    static String entryCode(String errorType) {
        return switch (errorType) {
            case "MissingRequiredParameterException" -> "MissingParameter";
            case "InvalidParameterValueException" -> "InvalidParameterValue";
            case "MessageNotInflight" -> "AWS.SimpleQueueService.MessageNotInflight";
            // KMS.AccessDeniedException ...: SQS's batch entries carry the KMS errors' Query codes
            default -> errorType.startsWith("Kms") ? io.hikyaku.protocol.ErrorCatalogue.lookup(errorType).queryCode() : errorType;
        };
    }

    /**
     * {Successful: [...], Failed: [...]}, an empty list left out as Amazon SQS's JSON leaves it out
     * (sqs-behaviours 82; over Query an empty flattened list is no element at all either way).
     */
    static ObjectNode result(ArrayNode successful, ArrayNode failed) {
        ObjectNode out = Json.object();
        if (!successful.isEmpty()) {
            out.set("Successful", successful);
        }
        if (!failed.isEmpty()) {
            out.set("Failed", failed);
        }
        return out;
    }
}
