package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TagQueue / UntagQueue edge cases (sqs-behaviours 89-91), SDK v2 and v1 over JSON. */
class TagEdgeCasesTest extends SqsTestBase {

    @Test
    void b89_tagQueueWithNoTagsIsAMissingParameter() {
        String url = createQueue(unique("b89"));
        assertV2Error(() -> sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of())), "MissingParameter",
                "The request must contain the parameter Tags.");
        assertV1Error(() -> sqsV1.tagQueue(url, Map.of()), "MissingParameter", 400,
                "The request must contain the parameter Tags.");
    }

    @Test
    void b90_untagQueueWithNoKeysIsAnInvalidParameterValue() {
        String url = createQueue(unique("b90"));
        assertV2Error(() -> sqs.untagQueue(b -> b.queueUrl(url).tagKeys(List.of())), "InvalidParameterValue",
                "Tag keys must be between 1 and 128 characters in length.");
    }

    @Test
    void b91_moreThan50TagsAreRefusedAndNothingChanges() {
        String name = unique("b91");
        String url = createQueue(name);
        Map<String, String> fifty = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            fifty.put("k" + i, "v");
        }
        sqs.tagQueue(b -> b.queueUrl(url).tags(fifty));
        assertV2Error(() -> sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("one-more", "v", "k0", "changed"))),
                "InvalidParameterValue", "Too many tags added for queue " + name + ".");
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).tags()).isEqualTo(fifty);
    }
}
