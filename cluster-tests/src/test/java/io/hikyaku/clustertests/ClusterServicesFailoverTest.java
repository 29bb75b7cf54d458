package io.hikyaku.clustertests;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.ComparisonOperator;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.StateValue;
import software.amazon.awssdk.services.cloudwatch.model.Statistic;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * SNS, KMS, the Scheduler and CloudWatch alarms in a cluster of three real server processes: their state is a
 * service log in the replicated store, so it survives the SIGKILL of the leader. Before the kill, through a follower
 * (which forwards to the leader): a topic with a queue subscribed, a KMS key and a ciphertext, an at() schedule a
 * little ahead that sends to a queue, an alarm set to ALARM. After the survivors elect a leader (which reloads the
 * services from the log): the topic and its subscription are listed and a Publish reaches the queue, the ciphertext
 * decrypts, the schedule exists and its one message arrives exactly once (whichever leader fired it), and the alarm
 * is described with its state and its history.
 */
class ClusterServicesFailoverTest {

    private static final String ACCOUNT = "000000000000";
    private static final List<NodeProcess> NODES = new ArrayList<>();

    @TempDir
    static Path dir;

    @AfterAll
    static void killEveryNode() throws InterruptedException {
        for (NodeProcess n : NODES) {
            n.close(); // SIGKILL by PID
        }
    }

    private static <B extends software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>, C> C client(B builder, URI endpoint) {
        return builder.endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(Duration.ofSeconds(20))
                        .apiCallAttemptTimeout(Duration.ofSeconds(8)).build())
                .build();
    }

    private static <B extends software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<B, C>
            & software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>, C> C sync(B builder, URI endpoint) {
        builder.httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(8)));
        return client(builder, endpoint);
    }

    /** Calls until it succeeds (a 503 during an election, a forward that timed out), at most {@code seconds}. */
    private static <T> T retry(String what, int seconds, Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = call.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not within " + seconds + " s: " + what + logs(), last);
    }

    private static void await(String what, int seconds, java.util.function.BooleanSupplier done) throws InterruptedException {
        retry(what, seconds, () -> done.getAsBoolean() ? Boolean.TRUE : null);
    }

    private static String logs() {
        return ProcessCluster.logs(NODES);
    }

    private static NodeProcess agreedLeader() {
        return ProcessCluster.agreedLeader(NODES);
    }

    private static String queueArn(String name) {
        return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
    }

    @Test
    void topicsKeysSchedulesAndAlarmsSurviveTheLeadersSigkill() throws Exception {
        long began = System.nanoTime();
        Path jar = NodeProcess.builtJar();
        List<Integer> ports = NodeProcess.freePorts(6);
        StringBuilder peers = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            String id = "n" + (i + 1);
            NODES.add(new NodeProcess(id, ports.get(i), ports.get(3 + i), dir.resolve(id),
                    Path.of(System.getProperty("hikyaku.cluster.logs", "target/node-logs")).resolve("services-" + id + ".log")));
            peers.append(i == 0 ? "" : ",").append(id).append("=127.0.0.1:").append(ports.get(3 + i));
        }
        for (NodeProcess n : NODES) {
            n.start(jar, peers.toString());
        }
        await("every node healthy", 90, () -> NODES.stream().allMatch(NodeProcess::healthy));
        await("a leader every node agrees on", 60, () -> agreedLeader() != null);
        NodeProcess leader = agreedLeader();
        NodeProcess follower = NODES.stream().filter(n -> n != leader).findFirst().orElseThrow();
        System.out.println("[services] leader " + leader.id + "; requests through the follower " + follower.id);

        URI via = follower.endpoint();
        SqsClient sqs = sync(SqsClient.builder(), via);
        SnsClient sns = sync(SnsClient.builder(), via);
        KmsClient kms = sync(KmsClient.builder(), via);
        SchedulerClient scheduler = sync(SchedulerClient.builder(), via);
        CloudWatchClient cloudWatch = sync(CloudWatchClient.builder(), via);

        retry("CreateQueue", 60, () -> sqs.createQueue(b -> b.queueName("from-topic")).queueUrl());
        retry("CreateQueue", 60, () -> sqs.createQueue(b -> b.queueName("from-schedule")).queueUrl());
        String topicArn = retry("CreateTopic", 60, () -> sns.createTopic(b -> b.name("orders")).topicArn());
        String subscriptionArn = retry("Subscribe", 60, () -> sns.subscribe(b -> b.topicArn(topicArn).protocol("sqs")
                .endpoint(queueArn("from-topic")).attributes(java.util.Map.of("RawMessageDelivery", "true"))).subscriptionArn());
        String keyId = retry("CreateKey", 60, () -> kms.createKey(b -> b.description("cluster")).keyMetadata().keyId());
        SdkBytes ciphertext = retry("Encrypt", 60, () -> kms.encrypt(b -> b.keyId(keyId)
                .plaintext(SdkBytes.fromString("kept across the failover", StandardCharsets.UTF_8))).ciphertextBlob());
        // ahead of the kill, the election and the reload on a loaded machine: it fires on one of the two leaders
        String at = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC)
                .format(Instant.now().plusSeconds(20));
        retry("CreateSchedule", 60, () -> scheduler.createSchedule(b -> b.name("once").scheduleExpression("at(" + at + ")")
                .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                .target(t -> t.arn(queueArn("from-schedule")).roleArn("arn:aws:iam::" + ACCOUNT + ":role/scheduler")
                        .input("{\"fired\":\"once\"}"))).scheduleArn());
        retry("PutMetricAlarm", 60, () -> cloudWatch.putMetricAlarm(b -> b.alarmName("no-workers").namespace("App")
                .metricName("RunningWorkers").statistic(Statistic.MAXIMUM).period(60).evaluationPeriods(1).threshold(1.0)
                .comparisonOperator(ComparisonOperator.LESS_THAN_THRESHOLD).treatMissingData("breaching")));
        retry("SetAlarmState", 60, () -> cloudWatch.setAlarmState(b -> b.alarmName("no-workers").stateValue(StateValue.ALARM)
                .stateReason("set by the cluster test")));
        System.out.println("[services] created through " + follower.id + " in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) + " ms since start; at(" + at + ")");

        long killedAt = System.nanoTime();
        leader.kill();
        System.out.println("[services] SIGKILL leader " + leader.id);
        await("a new leader among the survivors", 60, () -> agreedLeader() != null);
        NodeProcess newLeader = agreedLeader();
        NodeProcess other = NODES.stream().filter(n -> n.alive() && n != newLeader).findFirst().orElseThrow();
        System.out.println("[services] new leader " + newLeader.id + " after "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms; requests through " + other.id);

        URI survivor = other.endpoint(); // the follower forwards to the new leader
        SqsClient sqs2 = sync(SqsClient.builder(), survivor);
        SnsClient sns2 = sync(SnsClient.builder(), survivor);
        KmsClient kms2 = sync(KmsClient.builder(), survivor);
        SchedulerClient scheduler2 = sync(SchedulerClient.builder(), survivor);
        CloudWatchClient cloudWatch2 = sync(CloudWatchClient.builder(), survivor);

        // SNS: the topic and its subscription, and a publish reaches the queue
        assertThat(retry("ListTopics", 60, () -> sns2.listTopics().topics())).extracting(t -> t.topicArn()).containsExactly(topicArn);
        long servicesBack = System.nanoTime();
        System.out.println("[services] SNS answers " + TimeUnit.NANOSECONDS.toMillis(servicesBack - killedAt) + " ms after the kill");
        assertThat(retry("ListSubscriptionsByTopic", 30, () -> sns2.listSubscriptionsByTopic(b -> b.topicArn(topicArn)).subscriptions()))
                .singleElement().satisfies(s -> {
                    assertThat(s.subscriptionArn()).isEqualTo(subscriptionArn);
                    assertThat(s.endpoint()).isEqualTo(queueArn("from-topic"));
                });
        retry("Publish", 30, () -> sns2.publish(b -> b.topicArn(topicArn).message("after the failover")).messageId());
        String topicQueueUrl = survivor + "/" + ACCOUNT + "/from-topic";
        List<Message> published = retry("the published message in the subscribed queue", 60, () -> {
            List<Message> m = sqs2.receiveMessage(b -> b.queueUrl(topicQueueUrl).waitTimeSeconds(2)).messages();
            return m.isEmpty() ? null : m;
        });
        assertThat(published).extracting(Message::body).containsExactly("after the failover");

        // KMS: the earlier ciphertext decrypts on the new leader (the key's material is in the log, the master key shared)
        assertThat(retry("Decrypt", 30, () -> kms2.decrypt(b -> b.ciphertextBlob(ciphertext)).plaintext().asUtf8String()))
                .isEqualTo("kept across the failover");
        assertThat(retry("DescribeKey", 30, () -> kms2.describeKey(b -> b.keyId(keyId)).keyMetadata().enabled())).isTrue();

        // Scheduler: the schedule exists, and its message arrives exactly once (whichever leader fired it)
        assertThat(retry("GetSchedule", 30, () -> scheduler2.getSchedule(b -> b.name("once")).scheduleExpression()))
                .isEqualTo("at(" + at + ")");
        String scheduleQueueUrl = survivor + "/" + ACCOUNT + "/from-schedule";
        List<String> fired = new ArrayList<>();
        await("the schedule's message", 90, () -> {
            List<Message> m = sqs2.receiveMessage(b -> b.queueUrl(scheduleQueueUrl).waitTimeSeconds(2).maxNumberOfMessages(10)).messages();
            m.forEach(x -> fired.add(x.body()));
            m.forEach(x -> sqs2.deleteMessage(b -> b.queueUrl(scheduleQueueUrl).receiptHandle(x.receiptHandle())));
            return !fired.isEmpty();
        });
        // a second fire would come at once (the schedule is past due): watch the queue for a while
        long watchUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        while (System.nanoTime() < watchUntil) {
            try {
                sqs2.receiveMessage(b -> b.queueUrl(scheduleQueueUrl).waitTimeSeconds(2).maxNumberOfMessages(10)).messages()
                        .forEach(x -> fired.add(x.body()));
            } catch (RuntimeException e) {
                Thread.sleep(200);
            }
        }
        assertThat(fired).as("the at() schedule fires once, not once per leader").containsExactly("{\"fired\":\"once\"}");

        // CloudWatch: the alarm with its state and its history
        MetricAlarm alarm = retry("DescribeAlarms", 30, () -> {
            List<MetricAlarm> a = cloudWatch2.describeAlarms(b -> b.alarmNames("no-workers")).metricAlarms();
            return a.isEmpty() ? null : a.get(0);
        });
        assertThat(alarm.stateValue()).isEqualTo(StateValue.ALARM); // missing data is breaching: evaluation agrees
        assertThat(alarm.threshold()).isEqualTo(1.0);
        assertThat(retry("DescribeAlarmHistory", 30, () -> cloudWatch2.describeAlarmHistory(b -> b.alarmName("no-workers"))
                .alarmHistoryItems())).anySatisfy(h -> assertThat(h.historySummary()).contains("to ALARM"));

        assertThat(newLeader.role()).isEqualTo("LEADER");
        System.out.println("[services] checked in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) + " ms");
    }
}
