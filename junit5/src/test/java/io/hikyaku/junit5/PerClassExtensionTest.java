package io.hikyaku.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.embedded.Hikyaku;
import java.net.URI;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

@HikyakuQueue(name = "orders")
@HikyakuQueue(name = "jobs.fifo", fifo = true, attributes = "ContentBasedDeduplication=true")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerClassExtensionTest {

    @RegisterExtension
    static HikyakuExtension hikyaku = HikyakuExtension.perClass();

    @Test
    @Order(1)
    void injectsEndpointServerAndClientOfOneServer(URI endpoint, Hikyaku server, SqsClient sqs) {
        assertThat(endpoint).isEqualTo(hikyaku.endpoint()).isEqualTo(server.endpoint());
        String url = sqs.getQueueUrl(r -> r.queueName("orders")).queueUrl();
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("kept for the next test"));
    }

    @Test
    @Order(2)
    void theServerLastsForTheClass(SqsClient sqs) {
        String url = sqs.getQueueUrl(r -> r.queueName("orders")).queueUrl();
        assertThat(sqs.receiveMessage(r -> r.queueUrl(url)).messages()).extracting(Message::body)
                .containsExactly("kept for the next test");
    }

    @Test
    @Order(3)
    void declaredFifoQueueHasItsAttributes(SqsClient sqs) {
        String url = sqs.getQueueUrl(r -> r.queueName("jobs.fifo")).queueUrl();
        var attributes = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.ALL)).attributes();
        assertThat(attributes).containsEntry(QueueAttributeName.FIFO_QUEUE, "true")
                .containsEntry(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true");
    }
}
