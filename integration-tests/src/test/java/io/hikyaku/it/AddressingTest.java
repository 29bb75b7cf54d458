package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** How a request names its queue (sqs-behaviours 76, 77) and ElasticMQ-style queue URLs, over JSON. */
class AddressingTest extends SqsTestBase {

    @Test
    void b76_aBareQueueNameWorksWhereverAQueueUrlIsExpected() {
        String name = unique("dl-queue");
        createQueue(name);
        var sent = sqs.sendMessage(b -> b.queueUrl(name).messageBody("Using name instead of URL"));
        assertThat(sent.md5OfMessageBody()).isEqualTo("86a83f96652a1bfad3891e7d523750cb");
        sqs.setQueueAttributes(b -> b.queueUrl(name).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY, "")));
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(name).attributeNames(QueueAttributeName.ALL))
                .attributesAsStrings()).containsEntry("ApproximateNumberOfMessages", "1");
        assertThat(sqs.receiveMessage(b -> b.queueUrl(name)).messages()).extracting(m -> m.body())
                .containsExactly("Using name instead of URL");
    }

    @Test
    void b76_aBareFifoNameReachesTheFifoValidation() {
        String name = uniqueFifo("moto_ab12cd");
        createFifoQueue(name, Map.of());
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(name).messageBody("m").messageGroupId("g")
                        .messageDeduplicationId("d").delaySeconds(5)), "InvalidParameterValue",
                "Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.");
        sqs.sendMessage(b -> b.queueUrl(name).messageBody("m").messageGroupId("g").messageDeduplicationId("d"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(name)).messages()).hasSize(1);
    }

    @Test
    void b76_aBareNameIsTheCallersQueue() {
        SqsClient other = v2Client("111111111111");
        String name = unique("mine");
        other.createQueue(b -> b.queueName(name));
        other.sendMessage(b -> b.queueUrl(name).messageBody("in 111111111111"));
        assertThat(other.receiveMessage(b -> b.queueUrl(name)).messages()).extracting(m -> m.body())
                .containsExactly("in 111111111111");
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(name).messageBody("x")),
                "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.");
    }

    @Test
    void b77_aQueueUrlWithoutAnAccountAndNameIsNonExistentQueue() {
        // raw JSON: an SDK may route a request to the QueueUrl's host
        for (String url : new String[] {"http://whatever-incorrect-queue-address", "http://whatever/x", "::::"}) {
            RawHttp.Response r = http.json("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
            assertThat(r.status()).as(url).isEqualTo(400);
            assertThat(r.header("x-amzn-query-error")).isEqualTo("AWS.SimpleQueueService.NonExistentQueue;Sender");
            assertThat(Json.parse(r.body()).path("message").asText()).isEqualTo("The specified queue does not exist.");
        }
    }

    @Test
    void elasticMqQueueUrlsNameTheDefaultAccountsQueue() {
        String name = unique("emq");
        String url = createQueue(name);
        String emqUrl = endpoint + "/queue/" + name;
        sqs.sendMessage(b -> b.queueUrl(emqUrl).messageBody("via /queue/"));
        // also for a caller in another account: /queue/ is the default account's
        SqsClient other = v2Client("111111111111");
        assertThat(other.receiveMessage(b -> b.queueUrl(emqUrl)).messages()).extracting(m -> m.body())
                .containsExactly("via /queue/");
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).isEqualTo("1");
        assertThat(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(url);
    }
}
