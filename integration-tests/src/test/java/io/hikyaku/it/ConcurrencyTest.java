package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Several SDK clients at once: nothing is lost and nothing in flight is handed out twice. */
class ConcurrencyTest extends SqsTestBase {
    private static final int PRODUCERS = 3;
    private static final int PER_PRODUCER = 40;
    private final ExecutorService pool = Executors.newFixedThreadPool(6);

    @AfterAll
    void stopPool() {
        pool.shutdownNow();
    }

    private void produceAndConsume(String url, boolean fifo) throws Exception {
        int total = PRODUCERS * PER_PRODUCER;
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            producers.add(pool.submit(() -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    String body = producer + ":" + i;
                    sqs.sendMessage(b -> {
                        b.queueUrl(url).messageBody(body);
                        if (fifo) {
                            b.messageGroupId("p" + producer).messageDeduplicationId(body.replace(':', '-'));
                        }
                    });
                }
                return null;
            }));
        }
        Set<String> received = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        List<Future<?>> consumers = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            consumers.add(pool.submit(() -> {
                // bounded: a few hundred short polls at most
                for (int round = 0; round < 300 && received.size() < total; round++) {
                    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
                    for (Message m : got) {
                        if (!received.add(m.body())) {
                            duplicates.incrementAndGet();
                        }
                        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : producers) {
            f.get(60, TimeUnit.SECONDS);
        }
        for (Future<?> f : consumers) {
            f.get(60, TimeUnit.SECONDS);
        }
        assertThat(duplicates).as("in-flight messages handed out twice").hasValue(0);
        assertThat(received).hasSize(total);
        assertThat(attributes(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
    }

    @Test
    void concurrentProducersAndConsumersOnAStandardQueue() throws Exception {
        produceAndConsume(createQueue(unique("conc")), false);
    }

    @Test
    void concurrentProducersAndConsumersOnAFifoQueueKeepPerGroupOrder() throws Exception {
        String url = createFifoQueue(uniqueFifo("conc"), Map.of());
        produceAndConsume(url, true);
    }
}
