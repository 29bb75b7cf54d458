package io.hikyaku.durability;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Producers and consumers against one server incarnation. They run until stopped; every request
 * that fails (the server was killed) is recorded as "outcome unknown", never retried.
 */
final class Workload {

    static final int VISIBILITY_SECONDS = 5;

    private final SqsClient sqs;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong counter;

    Workload(SqsClient sqs, AtomicLong counter) {
        this.sqs = sqs;
        this.counter = counter;
    }

    void producer(Ledger ledger, String queueUrl, String name) {
        spawn(name, () -> {
            long n = counter.incrementAndGet();
            String body = String.format("%s-%09d", ledger.fifo ? "fifo" : "std", n);
            ledger.sendAttempted.add(body);
            SendMessageResponse r = sqs.sendMessage(b -> {
                b.queueUrl(queueUrl).messageBody(body);
                if (ledger.fifo) {
                    b.messageGroupId("g1").messageDeduplicationId(body);
                }
            });
            ledger.sendAcked.put(body, ledger.fifo ? r.sequenceNumber() : "");
        });
    }

    void consumer(Ledger ledger, String queueUrl, String name) {
        spawn(name, () -> {
            long sentAt = System.nanoTime();
            ReceiveMessageResponse r = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)
                    .waitTimeSeconds(1).visibilityTimeout(VISIBILITY_SECONDS)
                    .messageSystemAttributeNames(MessageSystemAttributeName.SEQUENCE_NUMBER));
            for (Message m : r.messages()) {
                ledger.onReceive(m.body(), m.attributes().get(MessageSystemAttributeName.SEQUENCE_NUMBER), sentAt);
                ledger.deleteUnknown.add(m.body());
                sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
                ledger.deleteAcked.put(m.body(), System.nanoTime());
                ledger.deleteUnknown.remove(m.body());
            }
        });
    }

    private void spawn(String name, Runnable step) {
        Thread t = new Thread(() -> {
            while (!stop.get()) {
                try {
                    step.run();
                } catch (SdkException e) {
                    pause(); // the server is down or restarting: outcome of that request unknown
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        threads.add(t);
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops and joins every thread (bounded by the client's call timeout). */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
            if (t.isAlive()) {
                throw new AssertionError("worker " + t.getName() + " did not stop");
            }
        }
    }
}
