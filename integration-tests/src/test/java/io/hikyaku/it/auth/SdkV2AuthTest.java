package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;
import software.amazon.awssdk.services.sts.model.StsException;

/** The AWS SDK for Java v2 signing with real keys: SQS (JSON) and STS (Query) on the same port. */
class SdkV2AuthTest extends AuthTestBase {

    @Test
    void rootKeyActsInItsAccount() {
        SqsClient a = sqs(ROOT_A, ROOT_A_SECRET);
        assertThat(a.listQueues().queueUrls()).containsExactly(endpoint + "/" + A + "/orders");
        String url = a.createQueue(b -> b.queueName("root-made")).queueUrl();
        assertThat(url).isEqualTo(endpoint + "/" + A + "/root-made");
        a.sendMessage(b -> b.queueUrl(url).messageBody("signed"));
        assertThat(a.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("signed");
    }

    @Test
    void sdkV1SignsToo() {
        com.amazonaws.services.sqs.AmazonSQS v1 = com.amazonaws.services.sqs.AmazonSQSClientBuilder.standard()
                .withEndpointConfiguration(new com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration(endpoint, "us-east-1"))
                .withCredentials(new com.amazonaws.auth.AWSStaticCredentialsProvider(new com.amazonaws.auth.BasicAWSCredentials(ROOT_A, ROOT_A_SECRET)))
                .withClientConfiguration(new com.amazonaws.ClientConfiguration().withMaxErrorRetry(0)).build();
        com.amazonaws.services.sqs.AmazonSQS wrong = com.amazonaws.services.sqs.AmazonSQSClientBuilder.standard()
                .withEndpointConfiguration(new com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration(endpoint, "us-east-1"))
                .withCredentials(new com.amazonaws.auth.AWSStaticCredentialsProvider(new com.amazonaws.auth.BasicAWSCredentials(ROOT_A, "wrong")))
                .withClientConfiguration(new com.amazonaws.ClientConfiguration().withMaxErrorRetry(0)).build();
        try {
            assertThat(v1.getQueueUrl("orders").getQueueUrl()).isEqualTo(endpoint + "/" + A + "/orders");
            assertThatThrownBy(wrong::listQueues).isInstanceOfSatisfying(com.amazonaws.AmazonServiceException.class, e -> {
                assertThat(e.getStatusCode()).isEqualTo(403);
                assertThat(e.getErrorCode()).isEqualTo("SignatureDoesNotMatch");
            });
        } finally {
            v1.shutdown();
            wrong.shutdown();
        }
    }

    @Test
    void everyKeyOfAUserWorks() {
        assertThat(sqs(ALICE_1, ALICE_SECRET).getQueueUrl(b -> b.queueName("orders")).queueUrl()).endsWith("/" + A + "/orders");
        assertThat(sqs(ALICE_2, ALICE_SECRET_2).getQueueUrl(b -> b.queueName("orders")).queueUrl()).endsWith("/" + A + "/orders");
    }

    @Test
    void getCallerIdentityForRootAndUser() {
        GetCallerIdentityResponse root = sts(ROOT_A, ROOT_A_SECRET).getCallerIdentity();
        assertThat(root.account()).isEqualTo(A);
        assertThat(root.arn()).isEqualTo("arn:aws:iam::" + A + ":root");
        assertThat(root.userId()).isEqualTo(A);
        GetCallerIdentityResponse alice = sts(ALICE_1, ALICE_SECRET).getCallerIdentity();
        assertThat(alice.arn()).isEqualTo("arn:aws:iam::" + A + ":user/alice");
        assertThat(alice.userId()).matches("AIDA[A-Z2-7]{17}");
    }

    @Test
    void assumeRoleProviderActsInTheRolesAccount() {
        StsClient stsB = sts(ROOT_B, ROOT_B_SECRET);
        try (StsAssumeRoleCredentialsProvider provider = StsAssumeRoleCredentialsProvider.builder().stsClient(stsB)
                .refreshRequest(r -> r.roleArn(WORKER_ARN).roleSessionName("it-session")).build()) {
            SqsClient asRole = sqs(provider);
            // B's credentials became A's role: only A's queues are listed
            assertThat(asRole.listQueues().queueUrls()).contains(endpoint + "/" + A + "/orders")
                    .allMatch(u -> u.startsWith(endpoint + "/" + A + "/"));
            GetCallerIdentityResponse who = sts(provider).getCallerIdentity();
            assertThat(who.arn()).isEqualTo("arn:aws:sts::" + A + ":assumed-role/worker/it-session");
            assertThat(who.account()).isEqualTo(A);
            assertThat(who.userId()).matches("AROA[A-Z2-7]{17}:it-session");
        }
    }

    /** SenderId is the sending principal's unique id: the user's AIDA id, the session's AROA id:session, the root's account. */
    @Test
    void senderIdIsTheSendingPrincipal() {
        String url = endpoint + "/" + A + "/orders";
        String aliceId = sts(ALICE_1, ALICE_SECRET).getCallerIdentity().userId();
        assertThat(aliceId).startsWith("AIDA");
        SqsClient root = sqs(ROOT_A, ROOT_A_SECRET);
        sqs(ALICE_1, ALICE_SECRET).sendMessage(b -> b.queueUrl(url).messageBody("from-alice"));
        root.sendMessage(b -> b.queueUrl(url).messageBody("from-root"));
        StsClient stsB = sts(ROOT_B, ROOT_B_SECRET);
        String sessionId;
        try (StsAssumeRoleCredentialsProvider provider = StsAssumeRoleCredentialsProvider.builder().stsClient(stsB)
                .refreshRequest(r -> r.roleArn(WORKER_ARN).roleSessionName("sender")).build()) {
            sessionId = sts(provider).getCallerIdentity().userId();
            sqs(provider).sendMessage(b -> b.queueUrl(url).messageBody("from-session"));
        }
        java.util.Map<String, String> senders = new java.util.HashMap<>();
        for (int i = 0; i < 10 && senders.size() < 3; i++) {
            root.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                    .messageSystemAttributeNamesWithStrings("SenderId")).messages().forEach(m -> {
                        senders.put(m.body(), m.attributesAsStrings().get("SenderId"));
                        root.deleteMessage(d -> d.queueUrl(url).receiptHandle(m.receiptHandle()));
                    });
        }
        assertThat(senders).containsEntry("from-alice", aliceId).containsEntry("from-root", A)
                .containsEntry("from-session", sessionId);
        assertThat(sessionId).matches("AROA[A-Z2-7]{17}:sender");
    }

    @Test
    void assumeRoleResponseShape() {
        AssumeRoleResponse r = sts(ROOT_B, ROOT_B_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("shape").durationSeconds(900));
        assertThat(r.credentials().accessKeyId()).matches("ASIA[A-Z2-7]{16}");
        assertThat(r.credentials().secretAccessKey()).hasSize(40);
        assertThat(r.credentials().sessionToken()).isNotEmpty();
        assertThat(r.credentials().expiration()).isEqualTo(clock.instant().plusSeconds(900));
        assertThat(r.assumedRoleUser().arn()).isEqualTo("arn:aws:sts::" + A + ":assumed-role/worker/shape");
    }

    @Test
    void trustPolicyRefusesOthers() {
        assertThatThrownBy(() -> sts(ALICE_1, ALICE_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("nope")))
                .isInstanceOfSatisfying(StsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(403);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("User: arn:aws:iam::" + A
                            + ":user/alice is not authorized to perform: sts:AssumeRole on resource: " + WORKER_ARN);
                });
    }

    @Test
    void anotherAccountsQueueIsAccessDenied() {
        SqsClient a = sqs(ROOT_A, ROOT_A_SECRET);
        String billing = endpoint + "/" + B + "/billing";
        assertThatThrownBy(() -> a.sendMessage(b -> b.queueUrl(billing).messageBody("x")))
                .isInstanceOfSatisfying(SqsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(403);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("User: arn:aws:iam::" + A
                            + ":root is not authorized to perform: sqs:sendmessage on resource: arn:aws:sqs:us-east-1:" + B
                            + ":billing because no resource-based policy allows the sqs:sendmessage action");
                });
        assertThatThrownBy(() -> a.getQueueUrl(b -> b.queueName("billing").queueOwnerAWSAccountId(B)))
                .isInstanceOfSatisfying(SqsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied"));
        // the batch action is reported as its single action
        assertThatThrownBy(() -> a.deleteMessageBatch(b -> b.queueUrl(billing).entries(e -> e.id("1").receiptHandle("h"))))
                .hasMessageContaining("sqs:deletemessage on resource");
    }

    @Test
    void sessionCredentialsWithoutOrWithAWrongTokenAreInvalid() {
        AssumeRoleResponse r = sts(ROOT_B, ROOT_B_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("tokens"));
        var c = r.credentials();
        SqsClient noToken = sqs(c.accessKeyId(), c.secretAccessKey());
        SqsClient wrongToken = sqs(AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken() + "x"));
        for (SqsClient client : new SqsClient[] {noToken, wrongToken}) {
            assertThatThrownBy(client::listQueues).isInstanceOfSatisfying(SqsException.class, e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidClientTokenId");
                assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The security token included in the request is invalid.");
            });
        }
    }
}
