package io.hikyaku.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.SqsClient;

class PerTestExtensionTest {

    private static final Set<URI> SEEN = new HashSet<>();

    @RegisterExtension
    static HikyakuExtension hikyaku = HikyakuExtension.perTest().with(b -> b.region("eu-west-1"));

    @RepeatedTest(2)
    void eachTestGetsAFreshServer(URI endpoint, SqsClient sqs) {
        assertThat(SEEN.add(endpoint)).as("a new server (port) for each test").isTrue();
        assertThat(sqs.listQueues().queueUrls()).isEmpty();
        String url = sqs.createQueue(r -> r.queueName("scratch")).queueUrl();
        assertThat(sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings("QueueArn")).attributesAsStrings())
                .containsEntry("QueueArn", "arn:aws:sqs:eu-west-1:000000000000:scratch");
    }
}
