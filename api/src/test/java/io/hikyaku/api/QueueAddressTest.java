package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.QueueRef;
import org.junit.jupiter.api.Test;

class QueueAddressTest {

    @Test
    void onlyThePathCountsWhateverTheHost() {
        QueueRef q = new QueueRef("123456789012", "unknown");
        assertThat(QueueAddress.parseUrl("https://sqs.us-east-1.amazonaws.com/123456789012/unknown")).contains(q);
        assertThat(QueueAddress.parseUrl("https://queue.amazonaws.com/123456789012/unknown")).contains(q);
        assertThat(QueueAddress.parseUrl("http://localhost:9324/123456789012/unknown/")).contains(q);
        assertThat(QueueAddress.parseUrl("/123456789012/unknown")).contains(q);
    }

    private static QueueRef resolve(String queueUrl, String path) {
        return QueueAddress.resolve(queueUrl, path, "111111111111", "000000000000");
    }

    @Test
    void b76_aBareNameIsTheCallersQueue() throws Exception {
        assertThat(resolve("myqueue", "/")).isEqualTo(new QueueRef("111111111111", "myqueue"));
        assertThat(resolve("my-queue.fifo", "/")).isEqualTo(new QueueRef("111111111111", "my-queue.fifo"));
        assertThat(resolve(null, "/myqueue")).isEqualTo(new QueueRef("111111111111", "myqueue"));
    }

    @Test
    void b77_aUrlWithoutAccountAndNameNamesNoQueue() throws Exception {
        assertThat(QueueAddress.parseUrl("http://localhost:9324/")).isEmpty();
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
        assertThat(resolve(null, "/queue/orders")).isEqualTo(q);
    }

    @Test
    void aRequestWithoutQueueUrlMayNameItsQueueInThePath() throws Exception {
        assertThat(resolve(null, "/000000000000/q1"))
                .isEqualTo(new QueueRef("000000000000", "q1"));
        assertThatThrownBy(() -> resolve(null, "/"))
                .hasMessage("The request must contain the parameter QueueUrl.");
    }

    @Test
    void buildsUrlsAndParsesArns() {
        QueueRef q = new QueueRef("000000000000", "q.fifo");
        assertThat(QueueAddress.url("http://localhost:9324", q)).isEqualTo("http://localhost:9324/000000000000/q.fifo");
        assertThat(QueueAddress.parseArn("arn:aws:sqs:us-east-1:000000000000:q.fifo")).contains(q);
        assertThat(QueueAddress.parseArn("arn:aws:sns:us-east-1:000000000000:q")).isEmpty();
        assertThat(QueueAddress.parseArn("garbage")).isEmpty();
    }

    @Test
    void anEmptyQueueUrlIsReadAsAbsentSoThePathNamesTheQueue() {
        assertThat(resolve("", "/orders")).isEqualTo(new QueueRef("111111111111", "orders"));
        assertThat(resolve("", "/222222222222/orders")).isEqualTo(new QueueRef("222222222222", "orders"));
        assertThatThrownBy(() -> resolve("", "/")).hasMessage("The request must contain the parameter QueueUrl.");
    }

    @Test
    void withoutACallerAccountABareNameNamesNoQueue() {
        assertThatThrownBy(() -> QueueAddress.resolve("orders", "/", null, "000000000000"))
                .hasMessage("The specified queue does not exist.");
        assertThatThrownBy(() -> QueueAddress.resolve(null, "/orders", null, "000000000000"))
                .hasMessage("The specified queue does not exist.");
    }
}
