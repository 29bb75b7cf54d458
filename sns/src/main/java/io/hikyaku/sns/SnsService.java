package io.hikyaku.sns;

import io.hikyaku.api.SqsService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * SNS as the server runs it: the durable topics (journal in the data dir, or memory), the signing key (in the data
 * dir, or per process), HTTP/S delivery limited to the outbound allow-list, the publisher and the API.
 */
public final class SnsService implements AutoCloseable {

    private final SnsTopics topics;
    private final SnsPublisher publisher;
    private final SnsApi api;

    private SnsService(SnsTopics topics, SnsPublisher publisher, SnsApi api) {
        this.topics = topics;
        this.publisher = publisher;
        this.api = api;
    }

    /** @param dataDir the server's data dir, or null for {@code --storage memory} */
    public static SnsService start(SqsService sqs, Path dataDir, String region) {
        return start(sqs, dataDir, region, OutboundAllowList.loopbackOnly(), null, false);
    }

    /**
     * @param allow where HTTP/S subscriptions may be delivered ({@code --outbound-allow})
     * @param advertisedUrl the base of SubscribeURL, UnsubscribeURL and SigningCertURL; null = each request's Host
     * @param enforcePolicies {@code --auth sigv4}: target queues' policies decide deliveries (QueueDeliveryPolicy)
     */
    public static SnsService start(SqsService sqs, Path dataDir, String region, OutboundAllowList allow,
                                   String advertisedUrl, boolean enforcePolicies) {
        return start(sqs, dataDir, region, allow, null, advertisedUrl, enforcePolicies);
    }

    /**
     * @param outboundCa PEM certificates HTTPS deliveries trust besides the JVM's ({@code --outbound-ca}), or null
     * @throws IllegalArgumentException when that file holds no readable certificate
     */
    public static SnsService start(SqsService sqs, Path dataDir, String region, OutboundAllowList allow, Path outboundCa,
                                   String advertisedUrl, boolean enforcePolicies) {
        return start(sqs, dataDir, region, allow, outboundCa, advertisedUrl, enforcePolicies, LambdaInvoker.NONE);
    }

    /**
     * @param lambdas the functions {@code lambda} subscriptions invoke (the push-delivery module's, handed in by the
     *                server), or {@link LambdaInvoker#NONE}
     */
    public static SnsService start(SqsService sqs, Path dataDir, String region, OutboundAllowList allow, Path outboundCa,
                                   String advertisedUrl, boolean enforcePolicies, LambdaInvoker lambdas) {
        return start(sqs, dataDir, dataDir == null ? SnsJournal.memory() : SnsCommandLog.inDataDir(dataDir), region, allow,
                outboundCa, advertisedUrl, enforcePolicies, lambdas);
    }

    /**
     * @param journal where the topics are kept: the data dir's file, or a cluster's replicated service log (the
     *                signing key and the HTTP outbox stay in {@code dataDir}, on this node)
     * @param lambdas the functions {@code lambda} subscriptions invoke, or {@link LambdaInvoker#NONE}
     */
    public static SnsService start(SqsService sqs, Path dataDir, SnsJournal journal, String region, OutboundAllowList allow,
                                   Path outboundCa, String advertisedUrl, boolean enforcePolicies, LambdaInvoker lambdas) {
        javax.net.ssl.SSLSocketFactory tls = OutboundTrust.sockets(outboundCa); // a bad file fails the start, naming it
        try {
            SnsSigner signer = dataDir == null ? SnsSigner.generate() : SnsSigner.loadOrCreate(dataDir.resolve("sns"));
            SnsTopics topics = SnsTopics.open(journal);
            OutboxLog outboxLog = dataDir == null ? OutboxLog.memory() : OutboxLog.open(dataDir.resolve("sns"));
            SnsTopicMetrics metrics = new SnsTopicMetrics();
            QueueCalls queues = new QueueCalls(sqs, region);
            QueueDeliveryPolicy queuePolicy = new QueueDeliveryPolicy(enforcePolicies);
            HttpEndpointClient.Poster web = new HttpEndpointClient(allow, tls).poster();
            HttpEndpointClient.Poster poster = (endpoint, headers, body) -> {
                String target = endpoint.toString();
                if (QueueCalls.isQueueArn(target)) {
                    return queues.resend(endpoint, headers, body);
                }
                if (SnsArns.isLambdaArn(target)) {
                    return lambdas.invoke(target, headers.getOrDefault("x-amz-sns-subscription-arn", ""), body);
                }
                return web.post(endpoint, headers, body);
            };
            HttpSubscribers http = new HttpSubscribers(allow, signer, queues, queuePolicy, poster, outboxLog, metrics,
                    HttpOutbox.DEFAULT_CAPACITY, HttpOutbox.DEFAULT_WORKERS);
            http.attach(topics);
            http.outbox().recover(); // what the last run accepted and did not finish
            SnsPublisher publisher = new SnsPublisher(queues, signer, http, queuePolicy, metrics);
            return new SnsService(topics, publisher, SnsApi.create(topics, region, publisher).advertise(advertisedUrl));
        } catch (IOException e) {
            throw new UncheckedIOException("SNS topics could not be loaded from " + dataDir, e);
        }
    }

    /**
     * Makes this node's signing key now if it has none (an RSA key: seconds on a slow machine), so that a cluster
     * node that becomes the leader later starts SNS without making one; and loads the JVM's TLS trust.
     */
    public static void prepare(Path dataDir) {
        try {
            SnsSigner.loadOrCreate(dataDir.resolve("sns"));
            javax.net.ssl.SSLSocketFactory.getDefault();
        } catch (IOException e) {
            throw new UncheckedIOException("the SNS signing key in " + dataDir + " cannot be made", e);
        }
    }

    public SnsApi api() {
        return api;
    }

    /** AWS/SNS counters since start, and the HTTP outbox's gauges. */
    public java.util.Map<String, Long> counters() {
        return publisher.counters();
    }

    /**
     * Each topic's AWS/SNS datapoints since the last call, then forgotten: the CloudWatch API drains this once a
     * minute and files them under the minute that ended (dimension TopicName).
     */
    public java.util.List<TopicMetricPoint> drainTopicMetrics() {
        return publisher.metrics().drain();
    }

    @Override
    public void close() {
        if (publisher.http() != null) {
            publisher.http().close();
        }
        try {
            topics.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
