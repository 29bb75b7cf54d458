package io.hikyaku.compat.spring;

import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The queues the app expects to exist, provisioned up front as infrastructure would be. */
record Queues(String orders, String dlq, String fifo) {

    static Queues named(String suffix) {
        return new Queues("spring-orders-" + suffix, "spring-dlq-" + suffix, "spring-steps-" + suffix + ".fifo");
    }

    /** DLQ, then the orders queue redriving to it after 2 receives (1 s visibility), then a FIFO queue. */
    void provision(SqsAsyncClient sqs) {
        String dlqUrl = sqs.createQueue(r -> r.queueName(dlq)).join().queueUrl();
        String dlqArn = sqs.getQueueAttributes(r -> r.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .join().attributes().get(QueueAttributeName.QUEUE_ARN);
        sqs.createQueue(r -> r.queueName(orders).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, "1",
                QueueAttributeName.REDRIVE_POLICY, "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}")))
                .join();
        sqs.createQueue(r -> r.queueName(fifo).attributes(Map.of(
                QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true")))
                .join();
    }

    void delete(SqsAsyncClient sqs) {
        for (String name : new String[] {orders, dlq, fifo}) {
            String url = sqs.getQueueUrl(r -> r.queueName(name)).join().queueUrl();
            sqs.deleteQueue(r -> r.queueUrl(url)).join();
        }
    }
}
