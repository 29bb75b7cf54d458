package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.AliasListEntry;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.DisabledException;
import software.amazon.awssdk.services.kms.model.InvalidCiphertextException;
import software.amazon.awssdk.services.kms.model.KeyListEntry;
import software.amazon.awssdk.services.kms.model.KeyState;
import software.amazon.awssdk.services.kms.model.KmsInvalidStateException;
import software.amazon.awssdk.services.kms.model.NotFoundException;

/** The key service on the real server (file storage) with the AWS SDK for Java v2 kms client. */
class KmsTest {

    @TempDir
    Path dataDir;

    private String endpoint;

    private void withKms(Consumer<KmsClient> body) {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH);
        try (HikyakuServer server = HikyakuServer.start(cfg);
             KmsClient kms = KmsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                     .httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                     .build()) {
            endpoint = server.endpoint();
            body.accept(kms);
        }
    }

    @Test
    void keysAliasesEnvelopeEncryptionStatesAndARestart() throws Exception {
        String[] keyId = new String[1];
        SdkBytes[] blob = new SdkBytes[1];
        Map<String, String> context = Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:000000000000:orders");
        withKms(kms -> {
            var created = kms.createKey(b -> b.description("orders key")).keyMetadata();
            keyId[0] = created.keyId();
            assertThat(created.arn()).isEqualTo("arn:aws:kms:us-east-1:000000000000:key/" + keyId[0]);
            assertThat(created.keyStateAsString()).isEqualTo("Enabled");
            assertThat(created.keySpecAsString()).isEqualTo("SYMMETRIC_DEFAULT");
            kms.createAlias(b -> b.aliasName("alias/orders").targetKeyId(keyId[0]));
            assertThat(kms.describeKey(b -> b.keyId("alias/orders")).keyMetadata().keyId()).isEqualTo(keyId[0]);
            assertThat(kms.describeKey(b -> b.keyId("arn:aws:kms:us-east-1:000000000000:alias/orders")).keyMetadata().keyId())
                    .isEqualTo(keyId[0]);
            assertThat(kms.describeKey(b -> b.keyId(created.arn())).keyMetadata().description()).isEqualTo("orders key");
            assertThat(kms.listKeys().keys()).extracting(KeyListEntry::keyId).contains(keyId[0]);
            assertThat(kms.listAliases().aliases()).extracting(AliasListEntry::aliasName).contains("alias/orders");

            blob[0] = kms.encrypt(b -> b.keyId("alias/orders").plaintext(SdkBytes.fromUtf8String("marker-7"))
                    .encryptionContext(context)).ciphertextBlob();
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blob[0]).encryptionContext(context)).plaintext().asUtf8String())
                    .isEqualTo("marker-7");
            assertThatThrownBy(() -> kms.decrypt(b -> b.ciphertextBlob(blob[0]).encryptionContext(Map.of("aws:sqs:arn", "other"))))
                    .isInstanceOf(InvalidCiphertextException.class);
            var dataKey = kms.generateDataKey(b -> b.keyId(keyId[0]).keySpec(DataKeySpec.AES_256).encryptionContext(context));
            assertThat(dataKey.plaintext().asByteArray()).hasSize(32);
            assertThat(kms.decrypt(b -> b.ciphertextBlob(dataKey.ciphertextBlob()).encryptionContext(context)).plaintext())
                    .isEqualTo(dataKey.plaintext());
            assertThat(kms.generateRandom(b -> b.numberOfBytes(64)).plaintext().asByteArray()).hasSize(64);
            assertThat(kms.describeKey(b -> b.keyId("alias/aws/sqs")).keyMetadata().keyManagerAsString()).isEqualTo("AWS");

            kms.disableKey(b -> b.keyId(keyId[0]));
            assertThatThrownBy(() -> kms.encrypt(b -> b.keyId(keyId[0]).plaintext(SdkBytes.fromUtf8String("x"))))
                    .isInstanceOfSatisfying(DisabledException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo(created.arn() + " is disabled."));
            kms.enableKey(b -> b.keyId(keyId[0]));

            String doomed = kms.createKey(b -> b.description("doomed")).keyMetadata().keyId();
            var scheduled = kms.scheduleKeyDeletion(b -> b.keyId(doomed).pendingWindowInDays(7));
            assertThat(scheduled.keyState()).isEqualTo(KeyState.PENDING_DELETION);
            assertThatThrownBy(() -> kms.encrypt(b -> b.keyId(doomed).plaintext(SdkBytes.fromUtf8String("x"))))
                    .isInstanceOf(KmsInvalidStateException.class);
            assertThatThrownBy(() -> kms.describeKey(b -> b.keyId("alias/missing"))).isInstanceOf(NotFoundException.class);
            try {
                HttpResponse<String> unknown = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint))
                        .header("X-Amz-Target", "TrentService.CreateCustomKeyStore")
                        .header("Content-Type", "application/x-amz-json-1.1")
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(unknown.statusCode()).isEqualTo(400);
                assertThat(unknown.body()).contains("\"__type\":\"UnknownOperationException\"");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(new String(Files.readAllBytes(dataDir.resolve("kms").resolve("commands.log")), java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("marker-7");
        withKms(kms -> { // the keys, their states and their material survive the restart
            assertThat(kms.describeKey(b -> b.keyId("alias/orders")).keyMetadata().keyId()).isEqualTo(keyId[0]);
            assertThat(kms.decrypt(b -> b.ciphertextBlob(blob[0]).encryptionContext(context)).plaintext().asUtf8String())
                    .isEqualTo("marker-7");
        });
    }
}
