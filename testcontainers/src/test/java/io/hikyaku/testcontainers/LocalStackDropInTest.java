package io.hikyaku.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Testcontainers' own {@link LocalStackContainer} with only the image name changed: it replaces the entry
 * point, waits for {@code Ready.} and talks to port 4566, and an SDK flow works against it.
 */
@EnabledIfSystemProperty(named = "hikyaku.skipImageTests", matches = "false",
        disabledReason = "needs a container engine and hikyaku:latest loaded: -Dhikyaku.skipImageTests=false (packaging/test-image.sh)")
class LocalStackDropInTest {

    @Test
    void theLocalStackModuleStartsTheImageAndAnSdkFlowRuns() throws Exception {
        DockerImageName image = DockerImageName.parse("hikyaku:latest").asCompatibleSubstituteFor("localstack/localstack");
        try (LocalStackContainer localstack = LoopbackPort.bind(
                new LocalStackContainer(image).withServices(LocalStackContainer.Service.SQS), 9875, 4566)) {
            localstack.start();
            assertThat(localstack.getLogs()).contains("Ready.");
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    localstack.getEndpoint().resolve("/_localstack/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"sqs\":\"running\"");
            try (SqsClient sqs = SqsRoundTrip.client(localstack.getEndpoint(), localstack.getRegion(),
                    localstack.getAccessKey(), localstack.getSecretKey())) {
                assertThat(SqsRoundTrip.run(sqs, "drop-in")).isEqualTo(localstack.getEndpoint() + "/000000000000/drop-in");
            }
        }
    }
}
