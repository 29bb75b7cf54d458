package io.hikyaku.compat.jms;

import static io.hikyaku.compat.jms.Check.equal;
import static io.hikyaku.compat.jms.Check.isTrue;
import static io.hikyaku.compat.jms.Check.step;

import com.amazon.sqs.javamessaging.AmazonSQSMessagingClientWrapper;
import com.amazon.sqs.javamessaging.ProviderConfiguration;
import com.amazon.sqs.javamessaging.SQSConnection;
import com.amazon.sqs.javamessaging.SQSConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.CreateQueueRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Amazon SQS Java Messaging Library (JMS 3.1 over SDK v2) against an SQS endpoint: a producer and a
 * CLIENT_ACKNOWLEDGE consumer, FIFO groups, and a poison message that session.recover() sends to the DLQ.
 * The only change from AWS: the library is handed an SqsClient built with endpointOverride.
 */
public final class JmsWorkflow {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;

    public static void main(String[] args) throws Exception {
        String endpoint = args.length > 0 ? args[0] : System.getenv("HIKYAKU_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            System.err.println("usage: JmsWorkflow ENDPOINT (or set HIKYAKU_ENDPOINT)");
            System.exit(2);
        }
        try {
            run(endpoint);
            System.out.println("OK jms workflow passed");
            System.exit(0);
        } catch (Throwable failure) {
            System.out.println("FAILED: " + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    /** The keys from the environment, as an application on AWS would have them (compat/run.sh sets them). */
    static AwsBasicCredentials credentials() {
        return AwsBasicCredentials.create(envOr("AWS_ACCESS_KEY_ID", "test"), envOr("AWS_SECRET_ACCESS_KEY", "test"));
    }

    private static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    /**
     * With the server verifying SigV4 (compat/run.sh's sigv4-* rows): the SDK's own signature made with
     * a wrong secret, or with a key the server does not know, is refused with AWS's code and status.
     */
    private static void wrongKeysRefused(String endpoint) {
        step("auth: a wrong secret and an unknown key are refused");
        refused(endpoint, AwsBasicCredentials.create(credentials().accessKeyId(), "wrong-secret"), "SignatureDoesNotMatch");
        refused(endpoint, AwsBasicCredentials.create("AKIANOBODY0000000000", "x"), "InvalidClientTokenId");
    }

    private static void refused(String endpoint, AwsBasicCredentials keys, String code) {
        try (SqsClient bad = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(keys)).build()) {
            bad.listQueues();
            throw new AssertionError(code + " expected, the call succeeded");
        } catch (SqsException e) {
            equal(e.awsErrorDetails().errorCode(), code, "error code");
            equal(e.statusCode(), 403, "HTTP status of " + code);
        }
    }

    private static void run(String endpoint) throws Exception {
        if ("sigv4".equals(System.getenv("COMPAT_AUTH"))) {
            wrongKeysRefused(endpoint);
        }
        SqsClient sqs = SqsClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials()))
                .build();
        String suffix = Long.toString(System.currentTimeMillis() % 10_000_000);
        String dlqName = "jms-dlq-" + suffix;
        String queueName = "jms-orders-" + suffix;
        String fifoName = "jms-fifo-" + suffix + ".fifo";

        SQSConnectionFactory factory = new SQSConnectionFactory(
                new ProviderConfiguration().withNumberOfMessagesToPrefetch(1), sqs);
        SQSConnection connection = factory.createConnection();
        try {
            AmazonSQSMessagingClientWrapper client = connection.getWrappedAmazonSQSClient();

            step("create queues through the library's client wrapper");
            isTrue(!client.queueExists(queueName), "queueExists(missing) is false (QueueDoesNotExist handled)");
            String dlqUrl = client.createQueue(dlqName).queueUrl();
            String dlqArn = attribute(sqs, dlqUrl, QueueAttributeName.QUEUE_ARN);
            String queueUrl = client.createQueue(CreateQueueRequest.builder().queueName(queueName)
                    .attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
                            "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}",
                            QueueAttributeName.VISIBILITY_TIMEOUT, "30"))
                    .build()).queueUrl();
            client.createQueue(CreateQueueRequest.builder().queueName(fifoName)
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")).build());
            isTrue(client.queueExists(queueName), "queueExists(created queue)");

            Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue(queueName);
            equal(queue.getQueueName(), queueName, "JMS queue name");
            MessageProducer producer = session.createProducer(queue);

            step("produce text, bytes and object messages with typed properties");
            TextMessage text = session.createTextMessage("order #1");
            text.setStringProperty("customer", "alice");
            text.setIntProperty("quantity", 3);
            text.setBooleanProperty("express", true);
            text.setDoubleProperty("price", 9.5);
            text.setLongProperty("orderId", 1234567890123L);
            producer.send(text);
            String textId = text.getJMSMessageID();
            isTrue(textId != null && textId.startsWith("ID:"), "JMSMessageID set on send: " + textId);
            BytesMessage bytes = session.createBytesMessage();
            bytes.writeBytes(new byte[] {0, 1, 2, (byte) 0xff});
            producer.send(bytes);
            ObjectMessage object = session.createObjectMessage(new ArrayList<>(List.of("a", "b")));
            producer.send(object);
            equal(attribute(sqs, queueUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "3",
                    "ApproximateNumberOfMessages after 3 sends");

            step("consume in CLIENT_ACKNOWLEDGE mode");
            MessageConsumer consumer = session.createConsumer(queue);
            connection.start();
            List<Message> received = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message message = consumer.receive(RECEIVE_TIMEOUT_MS);
                isTrue(message != null, "message " + (i + 1) + " of 3 received");
                received.add(message);
            }
            TextMessage gotText = find(received, TextMessage.class);
            equal(gotText.getText(), "order #1", "text body");
            equal(gotText.getJMSMessageID(), textId, "JMSMessageID round trip");
            equal(gotText.getStringProperty("customer"), "alice", "String property");
            equal(gotText.getIntProperty("quantity"), 3, "int property");
            equal(gotText.getBooleanProperty("express"), true, "boolean property");
            equal(gotText.getDoubleProperty("price"), 9.5, "double property");
            equal(gotText.getLongProperty("orderId"), 1234567890123L, "long property");
            equal(gotText.getIntProperty("JMSXDeliveryCount"), 1, "JMSXDeliveryCount on first delivery");
            BytesMessage gotBytes = find(received, BytesMessage.class);
            byte[] payload = new byte[(int) gotBytes.getBodyLength()];
            gotBytes.readBytes(payload);
            equal(java.util.Arrays.toString(payload), "[0, 1, 2, -1]", "bytes body");
            equal(find(received, ObjectMessage.class).getObject(), List.of("a", "b"), "object body");
            equal(attribute(sqs, queueUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "3",
                    "in flight before acknowledge");
            received.get(received.size() - 1).acknowledge(); // CLIENT_ACKNOWLEDGE: acks everything consumed so far
            equal(attribute(sqs, queueUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "0",
                    "nothing in flight after acknowledge (messages deleted)");
            equal(attribute(sqs, queueUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "0",
                    "queue empty after acknowledge");

            step("poison message: two deliveries without acknowledge (session.recover), then the DLQ");
            producer.send(session.createTextMessage("poison"));
            for (int delivery = 1; delivery <= 2; delivery++) {
                Message poison = consumer.receive(RECEIVE_TIMEOUT_MS);
                isTrue(poison != null, "poison delivery " + delivery);
                equal(((TextMessage) poison).getText(), "poison", "poison body");
                equal(poison.getIntProperty("JMSXDeliveryCount"), delivery, "JMSXDeliveryCount");
                session.recover(); // negative-acknowledges: the message becomes visible again at once
            }
            // Consumers stay open until the end: closing one waits out its prefetch thread's 20 s long
            // poll, so the connection is stopped first (no new polls) and then closed, paying that wait once.
            Queue dlq = session.createQueue(dlqName);
            MessageConsumer dlqConsumer = session.createConsumer(dlq);
            Message dead = dlqConsumer.receive(RECEIVE_TIMEOUT_MS * 2);
            isTrue(dead != null, "poison message reached the DLQ");
            equal(((TextMessage) dead).getText(), "poison", "DLQ message body");
            dead.acknowledge();
            equal(attribute(sqs, dlqUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "0", "DLQ drained");
            equal(attribute(sqs, queueUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "0",
                    "source queue empty");

            step("FIFO: JMSXGroupID and deduplication id, delivered in order with sequence numbers");
            Queue fifo = session.createQueue(fifoName);
            MessageProducer fifoProducer = session.createProducer(fifo);
            for (int i = 1; i <= 3; i++) {
                TextMessage m = session.createTextMessage("step-" + i);
                m.setStringProperty("JMSXGroupID", "order-42");
                m.setStringProperty("JMS_SQS_DeduplicationId", "dedup-" + i);
                fifoProducer.send(m);
            }
            TextMessage duplicate = session.createTextMessage("step-1 again");
            duplicate.setStringProperty("JMSXGroupID", "order-42");
            duplicate.setStringProperty("JMS_SQS_DeduplicationId", "dedup-1");
            fifoProducer.send(duplicate);
            MessageConsumer fifoConsumer = session.createConsumer(fifo);
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message m = fifoConsumer.receive(RECEIVE_TIMEOUT_MS);
                isTrue(m != null, "FIFO message " + (i + 1));
                order.add(((TextMessage) m).getText());
                equal(m.getStringProperty("JMSXGroupID"), "order-42", "JMSXGroupID");
                isTrue(m.getStringProperty("JMS_SQS_SequenceNumber") != null, "JMS_SQS_SequenceNumber present");
                m.acknowledge();
            }
            equal(order, List.of("step-1", "step-2", "step-3"), "FIFO order");
            isTrue(fifoConsumer.receive(2_000) == null, "deduplicated FIFO message is not delivered");

            step("expected errors");
            try {
                session.createQueue("jms-missing-" + suffix);
                throw new AssertionError("createQueue(missing) should fail");
            } catch (InvalidDestinationException expected) {
                System.out.println("   createQueue(missing): " + expected.getMessage());
            }
            try {
                sqs.getQueueUrl(r -> r.queueName("jms-missing-" + suffix));
                throw new AssertionError("GetQueueUrl(missing) should fail");
            } catch (QueueDoesNotExistException expected) {
                equal(expected.awsErrorDetails().errorCode(), "AWS.SimpleQueueService.NonExistentQueue",
                        "GetQueueUrl(missing) error code");
                equal(expected.statusCode(), 400, "GetQueueUrl(missing) HTTP status");
            }

            step("delete queues");
            for (String url : List.of(queueUrl, dlqUrl, sqs.getQueueUrl(r -> r.queueName(fifoName)).queueUrl())) {
                sqs.deleteQueue(r -> r.queueUrl(url));
            }
        } finally {
            step("close the connection");
            closeQuietly(connection);
            sqs.close();
        }
    }

    private static String attribute(SqsClient sqs, String url, QueueAttributeName name) {
        return sqs.getQueueAttributes(GetQueueAttributesRequest.builder().queueUrl(url).attributeNames(name).build())
                .attributes().get(name);
    }

    private static <T extends Message> T find(List<Message> messages, Class<T> type) {
        return messages.stream().filter(type::isInstance).map(type::cast).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " among " + messages));
    }

    private static void closeQuietly(SQSConnection connection) {
        try {
            connection.stop();
            connection.close();
        } catch (JMSException ignored) {
            // the row's verdict is already decided
        }
    }
}
