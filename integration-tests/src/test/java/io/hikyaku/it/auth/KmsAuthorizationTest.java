package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.KmsException;

/** KMS with --auth sigv4: kms:<Op> on the key, IAM and the default key policy; another account is refused. */
class KmsAuthorizationTest extends AuthTestBase {

    private KmsClient kms(String keyId, String secret) {
        return KmsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
    }

    @Test
    void aUserWithoutRightsAndAnotherAccountAreRefusedTheRootIsServed() {
        try (KmsClient root = kms(ROOT_A, ROOT_A_SECRET); KmsClient alice = kms(ALICE_1, ALICE_SECRET);
             KmsClient other = kms(ROOT_B, ROOT_B_SECRET)) {
            String arn = root.createKey(b -> b.description("a")).keyMetadata().arn();
            assertThat(arn).startsWith("arn:aws:kms:us-east-1:" + A + ":key/");
            SdkBytes blob = root.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("secret"))).ciphertextBlob();
            assertThatThrownBy(() -> alice.decrypt(b -> b.ciphertextBlob(blob)))
                    .isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
                        assertThat(e.awsErrorDetails().errorMessage()).startsWith("User: arn:aws:iam::" + A
                                + ":user/alice is not authorized to perform: kms:Decrypt on resource: " + arn);
                    });
            // the default key policy trusts only the key's own account: B's root is refused, even with an ARN
            assertThatThrownBy(() -> other.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x"))))
                    .isInstanceOfSatisfying(KmsException.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException"));
            assertThat(root.decrypt(b -> b.ciphertextBlob(blob)).plaintext().asUtf8String()).isEqualTo("secret");
        }
    }

    @Test
    void theKeyPolicyGrantsAnotherAccountUnderItsConditionsAndItsDenyBindsTheOwner() {
        try (KmsClient root = kms(ROOT_A, ROOT_A_SECRET); KmsClient other = kms(ROOT_B, ROOT_B_SECRET)) {
            String arn = root.createKey(b -> b.description("shared")).keyMetadata().arn();
            String policy = """
                    {"Version":"2012-10-17","Statement":[
                     {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":"kms:*","Resource":"*"},
                     {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":"kms:Encrypt","Resource":"*",
                      "Condition":{"StringEquals":{"kms:EncryptionContext:tenant":"b"}}},
                     {"Effect":"Deny","Principal":{"AWS":"*"},"Action":"kms:ScheduleKeyDeletion","Resource":"*"}]}
                    """.formatted(A, B);
            root.putKeyPolicy(b -> b.keyId(arn).policyName("default").policy(policy));
            SdkBytes blob = other.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("from b"))
                    .encryptionContext(java.util.Map.of("tenant", "b"))).ciphertextBlob();
            assertThat(root.decrypt(b -> b.ciphertextBlob(blob).encryptionContext(java.util.Map.of("tenant", "b")))
                    .plaintext().asUtf8String()).isEqualTo("from b");
            assertThatThrownBy(() -> other.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x"))
                    .encryptionContext(java.util.Map.of("tenant", "c"))))
                    .isInstanceOfSatisfying(KmsException.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException"));
            assertThatThrownBy(() -> other.decrypt(b -> b.ciphertextBlob(blob).encryptionContext(java.util.Map.of("tenant", "b"))))
                    .isInstanceOfSatisfying(KmsException.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException"));
            assertThatThrownBy(() -> root.scheduleKeyDeletion(b -> b.keyId(arn)))
                    .isInstanceOfSatisfying(KmsException.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException"));
        }
    }
}
