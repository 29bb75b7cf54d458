package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.ScheduleState;
import software.amazon.awssdk.services.scheduler.model.SchedulerException;
import software.amazon.awssdk.services.scheduler.model.Target;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * With {@code --auth sigv4} each fire is sent as the target's execution role, decided at fire time: the role must
 * exist, trust {@code scheduler.amazonaws.com} (conditions on {@code aws:SourceAccount} / {@code aws:SourceArn} = the
 * schedule group), and its policies must allow {@code sqs:SendMessage} on the target; a refusal is a target error,
 * dropped by a retry policy of 0 attempts and then noted in the dead-letter queue (sent as the same role).
 * CreateSchedule needs {@code iam:PassRole} on the role, as at AWS. The SDK v2 scheduler client signs for real.
 */
class SchedulerExecutionRoleTest extends AuthTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROLES = """
                  - name: sched-ok
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole", Condition: {StringEquals: {"aws:SourceAccount": "111111111111"}}}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: ["arn:aws:sqs:us-east-1:111111111111:orders", "arn:aws:sqs:us-east-1:111111111111:sched-dlq"]}]}
                  - name: sched-untrusted
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {AWS: "arn:aws:iam::111111111111:root"}, Action: "sts:AssumeRole"}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:*", Resource: "*"}]}
                  - name: sched-dlq-only
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole"}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:us-east-1:111111111111:sched-dlq"}]}
                  - name: sched-nightly-group
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole", Condition: {ArnLike: {"aws:SourceArn": "arn:aws:scheduler:*:111111111111:schedule-group/nightly"}}}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "*"}]}
                  - name: sched-kms
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole"}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:us-east-1:111111111111:sched-sse*"}, {Effect: Allow, Action: ["kms:GenerateDataKey", "kms:Decrypt"], Resource: "*"}]}
                  - name: sched-sqs-only
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole"}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:us-east-1:111111111111:sched-sse*"}]}
                  - name: worker
            """;
    private static final String PLANNER = """
                  - name: planner
                    accessKeys:
                      - {accessKeyId: AKIAPLANNER000000001, secretAccessKey: "planner/secret/0123456789abcdefghijklmn"}
                    policies:
                      schedule: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "scheduler:*", Resource: "*"}, {Effect: Allow, Action: "iam:PassRole", Resource: "arn:aws:iam::111111111111:role/sched-ok"}]}
                  - name: alice
            """;

    private SchedulerClient root;
    private SchedulerClient planner;
    private SqsClient sqs;
    private String orders;
    private String dlq;

    @Override
    protected String config() {
        return CONFIG.replace("      - name: worker\n", ROLES).replace("      - name: alice\n", PLANNER);
    }

    @BeforeAll
    void clients() {
        root = scheduler(ROOT_A, ROOT_A_SECRET);
        planner = scheduler("AKIAPLANNER000000001", "planner/secret/0123456789abcdefghijklmn");
        sqs = sqs(ROOT_A, ROOT_A_SECRET);
        orders = sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        dlq = sqs.createQueue(b -> b.queueName("sched-dlq")).queueUrl();
    }

    private SchedulerClient scheduler(String key, String secret) {
        return SchedulerClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private static String role(String name) {
        return "arn:aws:iam::" + A + ":role/" + name;
    }

    /** A rate() schedule (its first fire is at once) sending to orders as {@code role}, dropped after one failure. */
    private void schedule(SchedulerClient client, String name, String group, String role, String body) {
        schedule(client, name, group, role, body, ScheduleState.ENABLED);
    }

    private void schedule(SchedulerClient client, String name, String group, String role, String body, ScheduleState state) {
        client.createSchedule(b -> b.name(name).groupName(group).scheduleExpression("rate(1 day)").state(state)
                .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                .target(Target.builder().arn("arn:aws:sqs:us-east-1:" + A + ":orders").roleArn(role).input(body)
                        .retryPolicy(r -> r.maximumRetryAttempts(0))
                        .deadLetterConfig(d -> d.arn("arn:aws:sqs:us-east-1:" + A + ":sched-dlq")).build()));
    }

    /** Every message that reaches {@code url} within {@code millis} of real time (the injected clock stays). */
    private List<String> drain(String url, long millis) {
        List<String> bodies = new java.util.ArrayList<>();
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages()) {
                bodies.add(m.body());
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return bodies;
    }

    private JsonNode note(List<String> dead, String schedule) throws Exception {
        for (String body : dead) {
            JsonNode n = JSON.readTree(body);
            if (n.path("ScheduleArn").asText().endsWith("/" + schedule)) {
                return n;
            }
        }
        throw new AssertionError("no dead-letter note of " + schedule + " in " + dead);
    }

    @Test
    void firesAreSentAsTheExecutionRoleAndARefusalIsATargetErrorThatReachesTheDeadLetterQueue() throws Exception {
        root.createScheduleGroup(b -> b.name("nightly"));
        schedule(root, "trusted", "default", role("sched-ok"), "sent as sched-ok");
        schedule(root, "untrusted", "default", role("sched-untrusted"), "never");
        schedule(root, "no-send-right", "default", role("sched-dlq-only"), "never");
        schedule(root, "missing-role", "default", role("ghost"), "never");
        schedule(root, "in-nightly", "nightly", role("sched-nightly-group"), "sent in nightly");
        schedule(root, "outside-nightly", "default", role("sched-nightly-group"), "never");

        List<String> delivered = drain(orders, 2500);
        assertThat(delivered).containsExactlyInAnyOrder("sent as sched-ok", "sent in nightly");
        List<String> dead = drain(dlq, 500);
        // the role may send to the DLQ only: the target's refusal is noted there with its reason
        assertThat(note(dead, "no-send-right").path("ErrorMessage").asText()).contains("The execution role " + role("sched-dlq-only")
                + " is not authorized to perform: sqs:SendMessage on resource: arn:aws:sqs:us-east-1:" + A + ":orders");
        // a role the Scheduler cannot assume (untrusted, missing, its trust's aws:SourceArn naming another group)
        // cannot send the note either: only the one note
        assertThat(dead).hasSize(1);
    }

    @Test
    void anSseKmsTargetNeedsTheKeyAsTheRole() throws Exception {
        String keyArn;
        try (KmsClient kms = KmsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ROOT_A, ROOT_A_SECRET)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            keyArn = kms.createKey(b -> b.description("scheduler target key")).keyMetadata().arn();
        }
        String sse = sqs.createQueue(b -> b.queueName("sched-sse").attributesWithStrings(java.util.Map.of("KmsMasterKeyId", keyArn))).queueUrl();
        String sseDlq = sqs.createQueue(b -> b.queueName("sched-sse-dlq")).queueUrl();
        for (String[] s : new String[][] {{"with-key", "sched-kms"}, {"without-key", "sched-sqs-only"}}) {
            root.createSchedule(b -> b.name(s[0]).scheduleExpression("rate(1 day)").flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                    .target(Target.builder().arn("arn:aws:sqs:us-east-1:" + A + ":sched-sse").roleArn(role(s[1])).input("sealed by " + s[1])
                            .retryPolicy(r -> r.maximumRetryAttempts(0))
                            .deadLetterConfig(d -> d.arn("arn:aws:sqs:us-east-1:" + A + ":sched-sse-dlq")).build()));
        }
        assertThat(drain(sse, 2500)).containsExactly("sealed by sched-kms");
        List<String> dead = drain(sseDlq, 500);
        assertThat(note(dead, "without-key").path("ErrorMessage").asText()).contains("kms:GenerateDataKey").contains(keyArn);
        assertThat(dead).hasSize(1);
    }

    @Test
    void createScheduleNeedsPassRoleOnTheExecutionRole() {
        schedule(planner, "planned", "default", role("sched-ok"), "by the planner", ScheduleState.DISABLED);
        SchedulerException refused = catchThrowableOfType(SchedulerException.class,
                () -> schedule(planner, "not-passed", "default", role("sched-untrusted"), "x", ScheduleState.DISABLED));
        assertThat(refused).isNotNull();
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
        assertThat(refused.awsErrorDetails().errorMessage()).isEqualTo("User: arn:aws:iam::" + A
                + ":user/planner is not authorized to perform: iam:PassRole on resource: " + role("sched-untrusted")
                + " because no identity-based policy allows the iam:PassRole action");
        planner.deleteSchedule(b -> b.name("planned"));
    }
}
