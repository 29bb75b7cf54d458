package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.protocol.WireProtocol;
import org.junit.jupiter.api.Test;

class QueueUrlsTest {

    @Test
    void onlyThePathCountsWhateverTheHost() {
        QueueRef q = new QueueRef("123456789012", "unknown");
        assertThat(QueueUrls.parseUrl("https://sqs.us-east-1.amazonaws.com/123456789012/unknown")).contains(q);
        assertThat(QueueUrls.parseUrl("https://queue.amazonaws.com/123456789012/unknown")).contains(q);
        assertThat(QueueUrls.parseUrl("http://localhost:9324/123456789012/unknown/")).contains(q);
        assertThat(QueueUrls.parseUrl("/123456789012/unknown")).contains(q);
    }

    private static final CallContext CALLER =
            new CallContext("111111111111", "us-east-1", "http://h", null, "r", "000000000000");

    private static QueueRef resolve(String queueUrl, String path) throws Exception {
        ObjectNode node = new ObjectMapper().createObjectNode().put("QueueUrl", queueUrl);
        return QueueUrls.resolve(new Input(node, WireProtocol.JSON, CALLER), path);
    }

    @Test
    void b76_aBareNameIsTheCallersQueue() throws Exception {
        assertThat(resolve("myqueue", "/")).isEqualTo(new QueueRef("111111111111", "myqueue"));
        assertThat(resolve("my-queue.fifo", "/")).isEqualTo(new QueueRef("111111111111", "my-queue.fifo"));
        Input noUrl = new Input(new ObjectMapper().createObjectNode(), WireProtocol.QUERY, CALLER);
        assertThat(QueueUrls.resolve(noUrl, "/myqueue")).isEqualTo(new QueueRef("111111111111", "myqueue"));
    }

    @Test
    void b77_aUrlWithoutAccountAndNameNamesNoQueue() throws Exception {
        assertThat(QueueUrls.parseUrl("http://localhost:9324/")).isEmpty();
        assertThatThrownBy(() -> resolve("http://whatever-incorrect-queue-address", "/"))
                .isInstanceOf(io.hikyaku.protocol.ApiException.class)
                .hasMessage("The specified queue does not exist.")
                .extracting(e -> ((io.hikyaku.protocol.ApiException) e).errorType()).isEqualTo("QueueDoesNotExist");
        assertThatThrownBy(() -> resolve("http://localhost:9324/only-one-segment", "/"))
                .hasMessage("The specified queue does not exist.");
    }

    @Test
    void elasticMqUrlsNameTheDefaultAccountsQueue() throws Exception {
        QueueRef q = new QueueRef("000000000000", "orders");
        assertThat(resolve("http://localhost:9324/queue/orders", "/")).isEqualTo(q);
        Input noUrl = new Input(new ObjectMapper().createObjectNode(), WireProtocol.QUERY, CALLER);
        assertThat(QueueUrls.resolve(noUrl, "/queue/orders")).isEqualTo(q);
    }

    @Test
    void aRequestWithoutQueueUrlMayNameItsQueueInThePath() throws Exception {
        assertThat(QueueUrls.resolve(InputTest.query("{}"), "/000000000000/q1"))
                .isEqualTo(new QueueRef("000000000000", "q1"));
        assertThatThrownBy(() -> QueueUrls.resolve(InputTest.query("{}"), "/"))
                .hasMessage("The request must contain the parameter QueueUrl.");
    }

    @Test
    void buildsUrlsAndParsesArns() {
        QueueRef q = new QueueRef("000000000000", "q.fifo");
        assertThat(QueueUrls.url("http://localhost:9324", q)).isEqualTo("http://localhost:9324/000000000000/q.fifo");
        assertThat(QueueUrls.parseArn("arn:aws:sqs:us-east-1:000000000000:q.fifo")).contains(q);
        assertThat(QueueUrls.parseArn("arn:aws:sns:us-east-1:000000000000:q")).isEmpty();
        assertThat(QueueUrls.parseArn("garbage")).isEmpty();
    }
}
