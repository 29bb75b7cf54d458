package io.hikyaku.compat.spring;

import io.awspring.cloud.sqs.annotation.SqsListener;
import io.awspring.cloud.sqs.listener.acknowledgement.Acknowledgement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.messaging.Message;
import org.springframework.stereotype.Component;

/** The app's consumers. They only record what they saw; the workflow asserts on the records. */
@Component
public class Listeners {
    static final String POISON = "poison";

    final Map<String, Message<String>> orders = new ConcurrentHashMap<>();
    final CountDownLatch ordersDone = new CountDownLatch(3);
    final AtomicInteger poisonAttempts = new AtomicInteger();
    final List<String> deadLetters = new CopyOnWriteArrayList<>();
    final CountDownLatch deadLetterSeen = new CountDownLatch(1);
    final List<String> steps = new CopyOnWriteArrayList<>();
    final CountDownLatch stepsDone = new CountDownLatch(3);

    /** Manual acknowledgement: a processed order is acknowledged (deleted); the poison message fails every time. */
    @SqsListener(value = "${compat.queues.orders}", acknowledgementMode = "MANUAL", pollTimeoutSeconds = "1",
            maxMessagesPerPoll = "10")
    public void onOrder(Message<String> message, Acknowledgement acknowledgement) {
        if (POISON.equals(message.getPayload())) {
            poisonAttempts.incrementAndGet();
            throw new IllegalStateException("failing the poison message on purpose");
        }
        orders.put(message.getPayload(), message);
        acknowledgement.acknowledge();
        ordersDone.countDown();
    }

    /** Default ON_SUCCESS acknowledgement: returning normally deletes the dead letter. */
    @SqsListener(value = "${compat.queues.dlq}", pollTimeoutSeconds = "1")
    public void onDeadLetter(String payload) {
        deadLetters.add(payload);
        deadLetterSeen.countDown();
    }

    @SqsListener(value = "${compat.queues.fifo}", pollTimeoutSeconds = "1")
    public void onStep(String payload) {
        steps.add(payload);
        stepsDone.countDown();
    }
}
