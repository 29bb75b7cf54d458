package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;
import software.amazon.awssdk.services.sts.model.StsException;

/** STS with auth none (the default): today's account rule, roles assumed without configuration. */
class AuthNoneStsTest extends SqsTestBase {

    private StsClient sts(AwsCredentialsProvider credentials) {
        return StsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private SqsClient sqsWith(AwsCredentialsProvider credentials) {
        return SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private static AwsCredentialsProvider key(String id) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(id, "any-secret"));
    }

    @Test
    void getCallerIdentityFollowsTheTwelveDigitRule() {
        try (StsClient twelve = sts(key("123456789012")); StsClient other = sts(key("test"))) {
            GetCallerIdentityResponse who = twelve.getCallerIdentity();
            assertThat(who.account()).isEqualTo("123456789012");
            assertThat(who.arn()).isEqualTo("arn:aws:iam::123456789012:root");
            assertThat(who.userId()).isEqualTo("123456789012");
            assertThat(other.getCallerIdentity().account()).isEqualTo(ACCOUNT);
        }
    }

    @Test
    void assumedRoleCredentialsActInTheRolesAccount() {
        String roleAccount = "333333333333";
        v2Client(roleAccount).createQueue(b -> b.queueName("role-account-queue"));
        createQueue(unique("default-account-queue"));
        try (StsClient caller = sts(key("test"));
             StsAssumeRoleCredentialsProvider provider = StsAssumeRoleCredentialsProvider.builder().stsClient(caller)
                     .refreshRequest(r -> r.roleArn("arn:aws:iam::" + roleAccount + ":role/any").roleSessionName("none-mode")).build();
             SqsClient asRole = sqsWith(provider)) {
            assertThat(asRole.listQueues().queueUrls()).containsExactly(endpoint + "/" + roleAccount + "/role-account-queue");
            assertThat(sts(provider).getCallerIdentity().arn()).isEqualTo("arn:aws:sts::" + roleAccount + ":assumed-role/any/none-mode");
        }
    }

    @Test
    void expiredTemporaryCredentialsAreRefused() {
        AssumeRoleResponse r;
        try (StsClient caller = sts(key("test"))) {
            r = caller.assumeRole(b -> b.roleArn("arn:aws:iam::444444444444:role/short").roleSessionName("short").durationSeconds(900));
        }
        var c = r.credentials();
        try (SqsClient session = sqsWith(StaticCredentialsProvider.create(
                AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken())))) {
            assertThat(session.listQueues().queueUrls()).isEmpty(); // account 444444444444 has none
            advance(Duration.ofSeconds(901));
            assertThatThrownBy(session::listQueues).isInstanceOfSatisfying(SqsException.class, e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ExpiredToken");
                assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The security token included in the request is expired");
            });
        }
    }

    @Test
    void unknownStsActionIsInvalidAction() {
        var response = http.query("/", "Action=DecodeAuthorizationMessage&Version=2011-06-15&EncodedMessage=x");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type>"
                + "<Code>InvalidAction</Code><Message>Could not find operation DecodeAuthorizationMessage for version 2011-06-15</Message>"
                + "</Error><RequestId>" + response.header("x-amzn-RequestId") + "</RequestId></ErrorResponse>");
        try (StsClient caller = sts(key("test"))) {
            assertThatThrownBy(() -> caller.assumeRole(b -> b.roleArn("not-an-arn-but-long-enough").roleSessionName("s1")))
                    .isInstanceOfSatisfying(StsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationError"));
        }
    }
}
