package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a 2xx answer means for the batch. Without ReportBatchItemFailures every 2xx is a complete
 * success. With it, the body is Lambda's SQSBatchResponse: an empty body, {@code null}, {@code {}}, or
 * an empty or null {@code batchItemFailures} list is a complete success; each entry's
 * {@code itemIdentifier} names a failed message by id. Lambda treats the batch as a complete failure
 * when the body is not JSON, or an entry has no, a null, an empty or an unknown itemIdentifier; so does this.
 *
 * @param failedIds the messages not to delete; {@code allFailed} means none is deleted
 * @param allFailed the whole batch failed
 * @param reason    why the whole batch failed, for logs (null otherwise)
 */
record BatchOutcome(Set<String> failedIds, boolean allFailed, String reason) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static BatchOutcome success() {
        return new BatchOutcome(Set.of(), false, null);
    }

    static BatchOutcome failure(String reason) {
        return new BatchOutcome(Set.of(), true, reason);
    }

    static BatchOutcome of2xx(byte[] body, boolean reportBatchItemFailures, Set<String> batchIds) {
        if (!reportBatchItemFailures) {
            return success();
        }
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8).trim();
        if (text.isEmpty()) {
            return success();
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (IOException e) {
            return failure("the response is not JSON");
        }
        if (root == null || root.isNull()) {
            return success();
        }
        if (!root.isObject()) {
            return failure("the response is not a JSON object");
        }
        JsonNode failures = root.get("batchItemFailures");
        if (failures == null || failures.isNull()) {
            return success();
        }
        if (!failures.isArray()) {
            return failure("batchItemFailures is not a list");
        }
        Set<String> failed = new LinkedHashSet<>();
        Set<String> known = new HashSet<>(batchIds);
        for (JsonNode f : failures) {
            JsonNode id = f.get("itemIdentifier");
            if (id == null || id.isNull() || !id.isTextual() || id.asText().isEmpty()) {
                return failure("a batchItemFailures entry has no itemIdentifier");
            }
            if (!known.contains(id.asText())) {
                return failure("itemIdentifier " + id.asText() + " is not a message of the batch");
            }
            failed.add(id.asText());
        }
        return new BatchOutcome(failed, false, null);
    }
}
