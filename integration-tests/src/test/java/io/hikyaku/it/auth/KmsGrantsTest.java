package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.GrantListEntry;
import software.amazon.awssdk.services.kms.model.GrantOperation;
import software.amazon.awssdk.services.kms.model.KmsException;

/**
 * Grants with --auth sigv4 and the SDK v2 kms client: a user with no KMS rights in IAM may do what a grant says on
 * its key (under its encryption context constraint) and nothing more; retiring and revoking take it away.
 */
class KmsGrantsTest extends AuthTestBase {

    private static final String ALICE_ARN = "arn:aws:iam::" + A + ":user/alice";

    private KmsClient kms(String keyId, String secret) {
        return KmsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private static void refused(Runnable call, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(KmsException.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code));
    }

    @Test
    void aGrantAllowsItsGranteeItsOperationsUnderItsConstraintUntilRetiredOrRevoked() {
        try (KmsClient root = kms(ROOT_A, ROOT_A_SECRET); KmsClient alice = kms(ALICE_1, ALICE_SECRET)) {
            String arn = root.createKey(b -> b.description("granted")).keyMetadata().arn();
            Map<String, String> tenantA = Map.of("tenant", "a");
            Map<String, String> tenantB = Map.of("tenant", "b");
            SdkBytes blobA = root.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("for a")).encryptionContext(tenantA)).ciphertextBlob();
            SdkBytes blobB = root.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("for b")).encryptionContext(tenantB)).ciphertextBlob();
            refused(() -> alice.decrypt(b -> b.ciphertextBlob(blobA).encryptionContext(tenantA)), "AccessDeniedException");

            var decryptGrant = root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).retiringPrincipal(ALICE_ARN)
                    .operations(GrantOperation.DECRYPT).name("alice-decrypt")
                    .constraints(c -> c.encryptionContextSubset(tenantA)));
            assertThat(decryptGrant.grantId()).hasSize(64);
            // CreateGrant is idempotent on name and parameters: the same grant, a new token
            var again = root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).retiringPrincipal(ALICE_ARN)
                    .operations(GrantOperation.DECRYPT).name("alice-decrypt").constraints(c -> c.encryptionContextSubset(tenantA)));
            assertThat(again.grantId()).isEqualTo(decryptGrant.grantId());
            assertThat(again.grantToken()).isNotEqualTo(decryptGrant.grantToken());

            assertThat(alice.decrypt(b -> b.ciphertextBlob(blobA).encryptionContext(tenantA).grantTokens(decryptGrant.grantToken()))
                    .plaintext().asUtf8String()).isEqualTo("for a");
            refused(() -> alice.decrypt(b -> b.ciphertextBlob(blobB).encryptionContext(tenantB)), "AccessDeniedException");
            refused(() -> alice.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x")).encryptionContext(tenantA)), "AccessDeniedException");
            refused(() -> alice.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).operations(GrantOperation.ENCRYPT)), "AccessDeniedException");
            refused(() -> alice.decrypt(b -> b.ciphertextBlob(blobA).encryptionContext(tenantA).grantTokens("not-a-token")), "InvalidGrantTokenException");

            List<GrantListEntry> grants = root.listGrants(b -> b.keyId(arn)).grants();
            assertThat(grants).singleElement().satisfies(g -> {
                assertThat(g.grantId()).isEqualTo(decryptGrant.grantId());
                assertThat(g.keyId()).isEqualTo(arn);
                assertThat(g.name()).isEqualTo("alice-decrypt");
                assertThat(g.granteePrincipal()).isEqualTo(ALICE_ARN);
                assertThat(g.retiringPrincipal()).isEqualTo(ALICE_ARN);
                assertThat(g.issuingAccount()).isEqualTo("arn:aws:iam::" + A + ":root");
                assertThat(g.operations()).containsExactly(GrantOperation.DECRYPT);
                assertThat(g.constraints().encryptionContextSubset()).isEqualTo(tenantA);
                assertThat(g.creationDate()).isNotNull();
            });
            assertThat(root.listRetirableGrants(b -> b.retiringPrincipal(ALICE_ARN)).grants())
                    .extracting(GrantListEntry::grantId).containsExactly(decryptGrant.grantId());

            // the retiring principal retires it by its token: the permission is gone
            alice.retireGrant(b -> b.grantToken(decryptGrant.grantToken()));
            refused(() -> alice.decrypt(b -> b.ciphertextBlob(blobA).encryptionContext(tenantA)), "AccessDeniedException");
            assertThat(root.listGrants(b -> b.keyId(arn)).grants()).isEmpty();

            // an unconstrained grant; alice may not retire it (not its retiring principal), the owner revokes it
            var useGrant = root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN)
                    .operations(GrantOperation.ENCRYPT, GrantOperation.DECRYPT, GrantOperation.GENERATE_DATA_KEY));
            SdkBytes byAlice = alice.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("by alice"))).ciphertextBlob();
            assertThat(alice.decrypt(b -> b.ciphertextBlob(byAlice)).plaintext().asUtf8String()).isEqualTo("by alice");
            assertThat(alice.generateDataKey(b -> b.keyId(arn).keySpec("AES_256")).plaintext().asByteArray()).hasSize(32);
            refused(() -> alice.retireGrant(b -> b.keyId(arn).grantId(useGrant.grantId())), "AccessDeniedException");
            root.revokeGrant(b -> b.keyId(arn).grantId(useGrant.grantId()));
            refused(() -> alice.decrypt(b -> b.ciphertextBlob(byAlice)), "AccessDeniedException");
            refused(() -> root.revokeGrant(b -> b.keyId(arn).grantId(useGrant.grantId())), "NotFoundException");

            refused(() -> root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).operations(GrantOperation.SIGN)), "ValidationException");
            refused(() -> root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).operations(GrantOperation.DESCRIBE_KEY)
                    .constraints(c -> c.encryptionContextEquals(tenantA))), "ValidationException");
            refused(() -> root.createGrant(b -> b.keyId(arn).granteePrincipal("alice").operations(GrantOperation.DECRYPT)), "ValidationException");
        }
    }

    @Test
    void anEncryptionContextEqualsGrantAllowsOnlyThatExactContext() {
        try (KmsClient root = kms(ROOT_A, ROOT_A_SECRET); KmsClient alice = kms(ALICE_1, ALICE_SECRET)) {
            String arn = root.createKey(b -> b.description("exact")).keyMetadata().arn();
            root.createGrant(b -> b.keyId(arn).granteePrincipal(ALICE_ARN).operations(GrantOperation.ENCRYPT)
                    .constraints(c -> c.encryptionContextEquals(Map.of("tenant", "a"))));
            assertThat(alice.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x")).encryptionContext(Map.of("tenant", "a")))
                    .ciphertextBlob()).isNotNull();
            refused(() -> alice.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x"))
                    .encryptionContext(Map.of("tenant", "a", "extra", "1"))), "AccessDeniedException");
            refused(() -> alice.encrypt(b -> b.keyId(arn).plaintext(SdkBytes.fromUtf8String("x"))), "AccessDeniedException");
        }
    }
}
