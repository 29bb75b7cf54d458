package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.QueueRef;
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

    @Test
    void urlsWithoutAccountAndNameAreInvalid() throws Exception {
        assertThat(QueueUrls.parseUrl("http://localhost:9324/")).isEmpty();
        assertThat(QueueUrls.parseUrl("myqueue")).isEmpty();
        assertThatThrownBy(() -> QueueUrls.resolve(InputTest.json("{\"QueueUrl\":\"myqueue\"}"), "/"))
                .hasMessage("The address myqueue is not valid for this endpoint.");
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
