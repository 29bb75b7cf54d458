package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.KmsAccessDeniedException;

/**
 * SSE-KMS under auth sigv4: SQS uses the queue's key on the caller's behalf, so the caller's IAM policies and the
 * key policy decide, as for a direct KMS call (kms:GenerateDataKey and kms:Decrypt to send, kms:Decrypt to
 * receive, with kms:ViaService and the aws:sqs:arn encryption context): a user without KMS rights, a key policy
 * Deny, and another account's key without a grant give KMS.AccessDeniedException; a grant in the key policy lets
 * the other account use it.
 */
class SseKmsAuthorizationTest extends AuthTestBase {

    private KmsClient kms(String keyId, String secret) {
        return KmsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private static final String ROOT_POLICY = """
            {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":"kms:*","Resource":"*"}""".formatted(A);

    @Test
    void keyPolicyAndIamDecideWhoMayUseTheQueuesKey() {
        try (KmsClient kmsA = kms(ROOT_A, ROOT_A_SECRET)) {
            SqsClient rootA = sqs(ROOT_A, ROOT_A_SECRET);
            SqsClient alice = sqs(ALICE_1, ALICE_SECRET);
            SqsClient rootB = sqs(ROOT_B, ROOT_B_SECRET);
            String keyArn = kmsA.createKey(b -> b.description("a's key")).keyMetadata().arn();
            String orders = rootA.getQueueUrl(b -> b.queueName("orders")).queueUrl();
            String ordersArn = "arn:aws:sqs:us-east-1:" + A + ":orders";
            rootA.setQueueAttributes(b -> b.queueUrl(orders).attributesWithStrings(Map.of("KmsMasterKeyId", keyArn)));
            rootA.sendMessage(b -> b.queueUrl(orders).messageBody("by root"));

            // alice may send to orders (IAM) but has no KMS rights: the default key policy delegates to IAM
            assertThatThrownBy(() -> alice.sendMessage(b -> b.queueUrl(orders).messageBody("by alice")))
                    .isInstanceOfSatisfying(KmsAccessDeniedException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KMS.AccessDeniedException");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("User: arn:aws:iam::" + A
                                + ":user/alice is not authorized to perform: kms:GenerateDataKey on resource: " + keyArn
                                + " because no identity-based policy allows the kms:GenerateDataKey action");
                    });
            var batch = alice.sendMessageBatch(b -> b.queueUrl(orders).entries(e -> e.id("1").messageBody("x")));
            assertThat(batch.failed()).singleElement().satisfies(f -> {
                assertThat(f.code()).isEqualTo("KMS.AccessDeniedException");
                assertThat(f.senderFault()).isTrue();
            });

            // a key policy Deny through SQS, bound to this queue's encryption context, stops the root itself
            kmsA.putKeyPolicy(b -> b.keyId(keyArn).policyName("default").policy("""
                    {"Version":"2012-10-17","Statement":[%s,
                     {"Effect":"Deny","Principal":{"AWS":"*"},"Action":"kms:Decrypt","Resource":"*",
                      "Condition":{"StringEquals":{"kms:ViaService":"sqs.us-east-1.amazonaws.com",
                                                   "kms:EncryptionContext:aws:sqs:arn":"%s"}}}]}""".formatted(ROOT_POLICY, ordersArn)));
            assertThatThrownBy(() -> rootA.receiveMessage(b -> b.queueUrl(orders)))
                    .isInstanceOfSatisfying(KmsAccessDeniedException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                            .startsWith("User: arn:aws:iam::" + A + ":root is not authorized to perform: kms:Decrypt on resource: " + keyArn));
            assertThatThrownBy(() -> rootA.sendMessage(b -> b.queueUrl(orders).messageBody("x")))
                    .isInstanceOf(KmsAccessDeniedException.class); // a producer needs kms:Decrypt too
            assertThat(rootA.getQueueAttributes(b -> b.queueUrl(orders).attributeNamesWithStrings("ApproximateNumberOfMessages"))
                    .attributesAsStrings()).containsEntry("ApproximateNumberOfMessages", "1");
            kmsA.putKeyPolicy(b -> b.keyId(keyArn).policyName("default").policy(
                    "{\"Version\":\"2012-10-17\",\"Statement\":[" + ROOT_POLICY + "]}"));
            assertThat(rootA.receiveMessage(b -> b.queueUrl(orders)).messages()).singleElement()
                    .satisfies(m -> assertThat(m.body()).isEqualTo("by root"));

            // another account's queue naming a's key: refused until a's key policy grants b
            String billing = rootB.getQueueUrl(b -> b.queueName("billing")).queueUrl();
            rootB.setQueueAttributes(b -> b.queueUrl(billing).attributesWithStrings(Map.of("KmsMasterKeyId", keyArn)));
            assertThatThrownBy(() -> rootB.sendMessage(b -> b.queueUrl(billing).messageBody("by b")))
                    .isInstanceOfSatisfying(KmsAccessDeniedException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                            .startsWith("User: arn:aws:iam::" + B + ":root is not authorized to perform: kms:GenerateDataKey"));
            kmsA.putKeyPolicy(b -> b.keyId(keyArn).policyName("default").policy("""
                    {"Version":"2012-10-17","Statement":[%s,
                     {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":["kms:GenerateDataKey","kms:Decrypt"],
                      "Resource":"*"}]}""".formatted(ROOT_POLICY, B)));
            rootB.sendMessage(b -> b.queueUrl(billing).messageBody("by b"));
            assertThat(rootB.receiveMessage(b -> b.queueUrl(billing)).messages()).singleElement()
                    .satisfies(m -> assertThat(m.body()).isEqualTo("by b"));
        }
    }
}
