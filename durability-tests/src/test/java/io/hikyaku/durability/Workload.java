package io.hikyaku.durability;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
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
    /** Bytes of padding after each body's name (to fill a disk quickly). */
    private final int padding;
    /** Answers 503 ServiceUnavailable seen (the server refusing while its store recovers). */
    final AtomicLong refusals = new AtomicLong();

    Workload(SqsClient sqs, AtomicLong counter) {
        this(sqs, counter, 0);
    }

    Workload(SqsClient sqs, AtomicLong counter, int padding) {
        this.sqs = sqs;
        this.counter = counter;
        this.padding = padding;
    }

    /** The tests' mix: two producers and two consumers on the standard queue, one of each on the FIFO queue. */
    void standardAndFifo(Ledger std, String stdUrl, Ledger fifo, String fifoUrl) {
        producer(std, stdUrl, "std-producer-1");
        producer(std, stdUrl, "std-producer-2");
        producer(fifo, fifoUrl, "fifo-producer");
        consumer(std, stdUrl, "std-consumer-1");
        consumer(std, stdUrl, "std-consumer-2");
        consumer(fifo, fifoUrl, "fifo-consumer");
    }

    void producer(Ledger ledger, String queueUrl, String name) {
        spawn(name, () -> {
            long n = counter.incrementAndGet();
            String body = String.format("%s-%09d", ledger.fifo ? "fifo" : "std", n);
            ledger.sendAttempted.add(body);
            SendMessageResponse r;
            try {
                r = sqs.sendMessage(b -> {
                    b.queueUrl(queueUrl).messageBody(padding == 0 ? body : body + " " + pad(n));
                    if (ledger.fifo) {
                        b.messageGroupId("g1").messageDeduplicationId(body);
                    }
                });
            } catch (AwsServiceException e) {
                if (refused(e)) {
                    ledger.sendRefused.add(body);
                }
                throw e;
            }
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
                String body = name(m.body());
                ledger.onReceive(body, m.attributes().get(MessageSystemAttributeName.SEQUENCE_NUMBER), sentAt);
                ledger.deleteUnknown.add(body);
                try {
                    sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
                } catch (AwsServiceException e) {
                    if (refused(e)) {
                        ledger.deleteUnknown.remove(body); // certainly not deleted
                    }
                    throw e;
                }
                ledger.deleteAcked.put(body, System.nanoTime());
                ledger.deleteUnknown.remove(body);
            }
        });
    }

    /** The body's name: what precedes the padding. */
    static String name(String body) {
        int space = body.indexOf(' ');
        return space < 0 ? body : body.substring(0, space);
    }

    /** Incompressible-enough padding, different per message. */
    private String pad(long n) {
        StringBuilder s = new StringBuilder(padding);
        long x = n * 0x9E3779B97F4A7C15L;
        while (s.length() < padding) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            s.append((char) ('a' + (int) ((x >>> 40) % 26)));
        }
        return s.toString();
    }

    /** A 503 ServiceUnavailable: the server says the request changed nothing. */
    private boolean refused(AwsServiceException e) {
        if (e.statusCode() == 503) {
            refusals.incrementAndGet();
            return true;
        }
        return false;
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
