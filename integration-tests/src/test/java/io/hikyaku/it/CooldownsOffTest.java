package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.server.Cooldowns;
import io.hikyaku.server.ServerConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code --cooldowns off} (a documented deviation from SQS): purge and recreate queues between tests
 * without SQS's 60-second waits.
 */
class CooldownsOffTest extends SqsTestBase {

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults.withCooldowns(Cooldowns.OFF);
    }

    @Test
    void purgeTwiceInARow() {
        String url = createQueue(unique("purge"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a"));
        sqs.purgeQueue(b -> b.queueUrl(url));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("b"));
        sqs.purgeQueue(b -> b.queueUrl(url));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
    }

    @Test
    void recreateADeletedQueueAtOnce() {
        String name = unique("again");
        String url = createQueue(name);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("old"));
        sqs.deleteQueue(b -> b.queueUrl(url));
        assertThat(createQueue(name)).isEqualTo(url);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
        sqsV1.deleteQueue(url);
        assertThat(sqsV1.createQueue(name).getQueueUrl()).isEqualTo(url);
    }
}
