package io.hikyaku.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.utility.MountableFile;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The image in a container through {@link HikyakuContainer}: ready, an SDK flow, a queue from a mounted config file. */
@EnabledIfSystemProperty(named = "hikyaku.skipImageTests", matches = "false",
        disabledReason = "needs a container engine and hikyaku:latest loaded: -Dhikyaku.skipImageTests=false (packaging/test-image.sh)")
class HikyakuContainerTest {

    @Test
    void servesTheSqsApiOnItsEndpointOnceReady() throws Exception {
        java.nio.file.Path config = java.nio.file.Files.createTempFile("hikyaku", ".yaml");
        java.nio.file.Files.writeString(config, "queues:\n  - name: from-config\n");
        try (HikyakuContainer hikyaku = LoopbackPort.bind(new HikyakuContainer().withInMemoryStorage()
                .withConfigFile(MountableFile.forHostPath(config, 0644)), 9874, HikyakuContainer.PORT)) {
            hikyaku.start();
            assertThat(hikyaku.getEndpoint()).isEqualTo(URI.create("http://127.0.0.1:9874"));
            HttpResponse<String> ready = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(hikyaku.getEndpoint().resolve("/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
            try (SqsClient sqs = SqsRoundTrip.client(hikyaku.getEndpoint(), hikyaku.getRegion(), "test", "test")) {
                String url = SqsRoundTrip.run(sqs, "orders");
                assertThat(url).isEqualTo("http://127.0.0.1:9874/000000000000/orders");
                assertThat(sqs.getQueueUrl(b -> b.queueName("from-config")).queueUrl()).endsWith("/000000000000/from-config");
            }
        } finally {
            java.nio.file.Files.deleteIfExists(config);
        }
    }
}
