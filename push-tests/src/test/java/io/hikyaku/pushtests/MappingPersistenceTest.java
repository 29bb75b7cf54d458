package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import io.hikyaku.push.FileMappingStore;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.pushtests.support.PushTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Mappings and their state survive a restart of a durable server, kept in the data directory. */
class MappingPersistenceTest extends PushTestBase {

    private JavaEndpoint java;
    private Path dataDir;

    @Override
    protected Path dataDir() {
        try {
            if (dataDir == null) {
                dataDir = Files.createTempDirectory("push-persist");
            }
            return dataDir;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected List<FunctionConfig> functions() throws Exception {
        if (java == null) {
            java = new JavaEndpoint(null);
            closeables.add(java);
        }
        return List.of(new FunctionConfig("persist-fn", java.url(), 5, Map.of(), null));
    }

    @Test
    void mappingsAndTheirStateSurviveARestart() throws Exception {
        java.handler(e -> new SQSBatchResponse(List.of()));
        String active = uniqueName("persist-on");
        String paused = uniqueName("persist-off");
        createQueue(active, Map.of());
        String pausedUrl = createQueue(paused, Map.of());
        String on = createMapping("{\"FunctionName\":\"persist-fn\",\"EventSourceArn\":\"" + arn(active) + "\",\"BatchSize\":7,"
                + "\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"{\\\"body\\\":[{\\\"prefix\\\":\\\"keep\\\"}]}\"}]}}");
        String off = createMapping("{\"FunctionName\":\"persist-fn\",\"EventSourceArn\":\"" + arn(paused) + "\",\"Enabled\":false}");
        assertThat(dataDir.resolve(FileMappingStore.FILE_NAME)).exists();

        restartServer();

        JsonAssert onAfter = new JsonAssert(lambda("GET", "/2015-03-31/event-source-mappings/" + on, null));
        assertThat(onAfter.state()).isEqualTo("Enabled");
        assertThat(onAfter.r().body().path("BatchSize").asInt()).isEqualTo(7);
        assertThat(onAfter.r().body().path("FilterCriteria").path("Filters").get(0).path("Pattern").asText())
                .isEqualTo("{\"body\":[{\"prefix\":\"keep\"}]}");
        assertThat(new JsonAssert(lambda("GET", "/2015-03-31/event-source-mappings/" + off, null)).state()).isEqualTo("Disabled");

        // the enabled one delivers after the restart, the disabled one does not
        String activeUrl = sqs.getQueueUrl(b -> b.queueName(active)).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(activeUrl).messageBody("keep me"));
        sqs.sendMessage(b -> b.queueUrl(pausedUrl).messageBody("keep me too"));
        await("delivered after the restart", Duration.ofSeconds(20), () -> java.recordsFor(arn(active)).size() == 1);
        await("deleted", Duration.ofSeconds(20), () -> depth(activeUrl) == 0);
        assertThat(java.recordsFor(arn(paused))).isEmpty();
        assertThat(depth(sqs.getQueueUrl(b -> b.queueName(paused)).queueUrl())).isEqualTo(1);

        deleteMapping(off);
        restartServer();
        assertThat(lambda("GET", "/2015-03-31/event-source-mappings/" + off, null).status()).isEqualTo(404);
        assertThat(lambda("GET", "/2015-03-31/event-source-mappings/" + on, null).status()).isEqualTo(200);
    }

    private record JsonAssert(LambdaResponse r) {
        String state() {
            assertThat(r.status()).isEqualTo(200);
            return r.body().path("State").asText();
        }
    }
}
