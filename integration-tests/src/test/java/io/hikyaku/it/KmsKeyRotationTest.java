package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DisabledException;
import software.amazon.awssdk.services.kms.model.KmsException;
import software.amazon.awssdk.services.kms.model.RotationType;
import software.amazon.awssdk.services.kms.model.RotationsListEntry;

/**
 * Customer managed key rotation through the real server and the SDK v2 kms client, on the server's clock moved by
 * the test (auth none: SigV4 would refuse a clock a year off): the key rotates after its period, not before; a
 * disabled key waits; old material keeps decrypting, also after a restart.
 */
class KmsKeyRotationTest {

    @TempDir
    Path dataDir;

    private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

    private void withKms(Consumer<KmsClient> body) {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH).withClock(clock);
        try (HikyakuServer server = HikyakuServer.start(cfg);
             KmsClient kms = KmsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                     .httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                     .build()) {
            body.accept(kms);
        }
    }

    private static String material(KmsClient kms, String keyId) {
        return kms.describeKey(b -> b.keyId(keyId)).keyMetadata().currentKeyMaterialId();
    }

    private static List<RotationsListEntry> rotations(KmsClient kms, String keyId) {
        return kms.listKeyRotations(b -> b.keyId(keyId)).rotations();
    }

    @Test
    void aKeyRotatesAfterItsPeriodOnTheServiceClockAndOldMaterialStillDecrypts() {
        String[] keyId = new String[1];
        SdkBytes[] blobs = new SdkBytes[3];
        String[] materials = new String[1];
        withKms(kms -> {
            keyId[0] = kms.createKey(b -> b.description("rotating")).keyMetadata().keyId();
            String first = material(kms, keyId[0]);
            blobs[0] = kms.encrypt(b -> b.keyId(keyId[0]).plaintext(SdkBytes.fromUtf8String("v1"))).ciphertextBlob();
            assertThat(kms.getKeyRotationStatus(b -> b.keyId(keyId[0])).keyRotationEnabled()).isFalse();

            assertThatThrownBy(() -> kms.enableKeyRotation(b -> b.keyId(keyId[0]).rotationPeriodInDays(89)))
                    .isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                        assertThat(e.awsErrorDetails().errorMessage()).contains("rotationPeriodInDays").contains("greater than or equal to 90");
                    });
            assertThatThrownBy(() -> kms.enableKeyRotation(b -> b.keyId(keyId[0]).rotationPeriodInDays(2561)))
                    .isInstanceOfSatisfying(KmsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));

            Instant enabled = clock.instant();
            kms.enableKeyRotation(b -> b.keyId(keyId[0]).rotationPeriodInDays(90));
            var status = kms.getKeyRotationStatus(b -> b.keyId(keyId[0]));
            assertThat(status.keyRotationEnabled()).isTrue();
            assertThat(status.rotationPeriodInDays()).isEqualTo(90);
            assertThat(status.nextRotationDate()).isEqualTo(enabled.plus(Duration.ofDays(90)));

            clock.advance(Duration.ofDays(90).minusSeconds(1));
            assertThat(material(kms, keyId[0])).isEqualTo(first);
            assertThat(rotations(kms, keyId[0])).isEmpty();

            clock.advance(Duration.ofSeconds(1));
            String second = material(kms, keyId[0]);
            assertThat(second).isNotEqualTo(first);
            assertThat(rotations(kms, keyId[0])).singleElement().satisfies(r -> {
                assertThat(r.rotationType()).isEqualTo(RotationType.AUTOMATIC);
                assertThat(r.rotationDate()).isEqualTo(enabled.plus(Duration.ofDays(90)));
                assertThat(r.keyMaterialId()).isEqualTo(second);
            });
            assertThat(kms.getKeyRotationStatus(b -> b.keyId(keyId[0])).nextRotationDate()).isEqualTo(enabled.plus(Duration.ofDays(180)));
            blobs[1] = kms.encrypt(b -> b.keyId(keyId[0]).plaintext(SdkBytes.fromUtf8String("v2"))).ciphertextBlob();
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blobs[0])).plaintext().asUtf8String()).isEqualTo("v1");

            // a disabled key is not rotated; once enabled again, an overdue rotation happens at once
            kms.disableKey(b -> b.keyId(keyId[0]));
            clock.advance(Duration.ofDays(120));
            assertThat(rotations(kms, keyId[0])).hasSize(1);
            assertThatThrownBy(() -> kms.rotateKeyOnDemand(b -> b.keyId(keyId[0]))).isInstanceOf(DisabledException.class);
            kms.enableKey(b -> b.keyId(keyId[0]));
            assertThat(rotations(kms, keyId[0])).hasSize(2);

            kms.rotateKeyOnDemand(b -> b.keyId(keyId[0]));
            assertThat(rotations(kms, keyId[0])).extracting(RotationsListEntry::rotationType)
                    .containsExactly(RotationType.AUTOMATIC, RotationType.AUTOMATIC, RotationType.ON_DEMAND);
            assertThat(kms.listKeyRotations(b -> b.keyId(keyId[0]).limit(2)).truncated()).isTrue();
            blobs[2] = kms.encrypt(b -> b.keyId(keyId[0]).plaintext(SdkBytes.fromUtf8String("v4"))).ciphertextBlob();

            kms.disableKeyRotation(b -> b.keyId(keyId[0]));
            assertThat(kms.getKeyRotationStatus(b -> b.keyId(keyId[0])).keyRotationEnabled()).isFalse();
            clock.advance(Duration.ofDays(400));
            assertThat(rotations(kms, keyId[0])).hasSize(3);
            materials[0] = material(kms, keyId[0]);

            // the AWS managed key of SQS rotates yearly and its rotation cannot be changed
            String managed = kms.describeKey(b -> b.keyId("alias/aws/sqs")).keyMetadata().keyId();
            var managedStatus = kms.getKeyRotationStatus(b -> b.keyId(managed));
            assertThat(managedStatus.keyRotationEnabled()).isTrue();
            assertThat(managedStatus.rotationPeriodInDays()).isEqualTo(365);
            assertThatThrownBy(() -> kms.disableKeyRotation(b -> b.keyId(managed)))
                    .isInstanceOfSatisfying(KmsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnsupportedOperationException"));
            assertThatThrownBy(() -> kms.rotateKeyOnDemand(b -> b.keyId(managed)))
                    .isInstanceOfSatisfying(KmsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnsupportedOperationException"));
        });
        withKms(kms -> { // a restart replays the rotations: same material, same history, every version decrypts
            assertThat(material(kms, keyId[0])).isEqualTo(materials[0]);
            assertThat(rotations(kms, keyId[0])).hasSize(3);
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blobs[0])).plaintext().asUtf8String()).isEqualTo("v1");
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blobs[1])).plaintext().asUtf8String()).isEqualTo("v2");
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blobs[2])).plaintext().asUtf8String()).isEqualTo("v4");
        });
    }
}
