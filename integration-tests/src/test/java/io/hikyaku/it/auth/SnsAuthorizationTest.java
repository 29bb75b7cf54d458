package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.AuthorizationErrorException;

/** SNS with --auth sigv4: requests signed for service sns, authorized as sns:<Action> by identity policies. */
class SnsAuthorizationTest extends AuthTestBase {

    private SnsClient sns(String keyId, String secret) {
        return SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
    }

    @Test
    void aUserWithoutSnsPermissionsIsRefusedAndTheRootActsInItsAccount() {
        try (SnsClient root = sns(ROOT_A, ROOT_A_SECRET); SnsClient alice = sns(ALICE_1, ALICE_SECRET)) {
            String topic = root.createTopic(b -> b.name("alerts")).topicArn();
            assertThat(topic).isEqualTo("arn:aws:sns:us-east-1:" + A + ":alerts");
            assertThatThrownBy(() -> alice.publish(b -> b.topicArn(topic).message("x")))
                    .isInstanceOfSatisfying(AuthorizationErrorException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AuthorizationError");
                        assertThat(e.awsErrorDetails().errorMessage()).startsWith("User: arn:aws:iam::" + A
                                + ":user/alice is not authorized to perform: sns:Publish on resource: " + topic);
                    });
            assertThat(root.listTopics().topics()).extracting(t -> t.topicArn()).contains(topic);
        }
    }
}
