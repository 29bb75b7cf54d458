package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class JsonWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String written(String value) {
        return new String(new JsonWriter(4).beginObject().field("k", value).endObject().toByteArray(),
                StandardCharsets.UTF_8);
    }

    private static String jackson(String value) throws Exception {
        return JSON.writeValueAsString(JSON.createObjectNode().put("k", value));
    }

    @Test
    void escapesQuotesBackslashesAndControlCharactersLikeJackson() throws Exception {
        for (String s : List.of("", "plain", "a\"b", "back\\slash", "nl\nt\tr\rb\bf\f", "\u0000\u0001\u001f\u007f",
                "/slash/", "caf\u00e9 \u65e5\u672c \ud83d\ude00", "x".repeat(5000))) {
            assertThat(written(s)).as(s).isEqualTo(jackson(s));
            assertThat(JSON.readTree(written(s)).path("k").asText()).isEqualTo(s);
        }
    }

    @Test
    void randomStringsRoundTripAndMatchJackson() throws Exception {
        Random r = new Random(42);
        for (int n = 0; n < 2000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(40); i > 0; i--) {
                int kind = r.nextInt(4);
                sb.appendCodePoint(kind == 0 ? r.nextInt(0x80) : kind == 1 ? r.nextInt(0x800)
                        : kind == 2 ? 0xE000 + r.nextInt(0x1000) : 0x10000 + r.nextInt(0x10000));
            }
            String s = sb.toString();
            assertThat(written(s)).isEqualTo(jackson(s));
        }
    }

    @Test
    void anEscapeAtAnyPositionOfAnyLengthIsFound() throws Exception {
        // The scan looks at eight bytes at a time: try every offset within and across those words.
        for (int n = 1; n <= 40; n++) {
            for (int at = 0; at < n; at++) {
                for (char c : new char[] {'"', '\\', '\n', '\u0000', '\u001f', '\u00e9'}) {
                    char[] chars = "x".repeat(n).toCharArray();
                    chars[at] = c;
                    if (at + 2 < n) {
                        chars[at + 2] = '!'; // 0x21, just above the control range
                    }
                    String s = new String(chars);
                    assertThat(written(s)).as("%d %d %x", n, at, (int) c).isEqualTo(jackson(s));
                }
            }
        }
        assertThat(written(" !#[]~\u007f".repeat(9))).isEqualTo(jackson(" !#[]~\u007f".repeat(9)));
    }

    @Test
    void unpairedSurrogateIsWrittenAsQuestionMarkLikeStringGetBytes() {
        assertThat(written("a\ud800b")).isEqualTo("{\"k\":\"a?b\"}");
    }

    @Test
    void nestingNumbersAndNullsGetTheirCommas() throws Exception {
        byte[] out = new JsonWriter(1).beginObject().field("a", 1).name("b").beginArray().value("x").value(-7)
                .beginObject().endObject().beginArray().endArray().endArray().name("c").beginObject()
                .field("d", (String) null).endObject().field("e", Long.MAX_VALUE).endObject().toByteArray();
        ObjectNode expected = JSON.createObjectNode().put("a", 1);
        expected.putArray("b").add("x").add(-7).add(JSON.createObjectNode()).add(JSON.createArrayNode());
        expected.putObject("c").putNull("d");
        expected.put("e", Long.MAX_VALUE);
        assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo(JSON.writeValueAsString(expected));
    }

    @Test
    void requestBodiesAreTheBytesJacksonWroteForTheOldTrees() throws Exception {
        ObjectNode batch = JSON.createObjectNode().put("QueueUrl", "http://h:1/000000000000/q.fifo");
        var entries = batch.putArray("Entries");
        entries.addObject().put("Id", "e0").put("MessageBody", "1:2:3:4:xx").put("MessageGroupId", "g2");
        entries.addObject().put("Id", "e1").put("MessageBody", "b\"1").put("MessageGroupId", "g2");
        assertThat(SqsRequests.sendMessageBatch("http://h:1/000000000000/q.fifo", List.of(
                new SqsRequests.Entry("e0", "1:2:3:4:xx", "g2"), new SqsRequests.Entry("e1", "b\"1", "g2"))))
                .isEqualTo(JSON.writeValueAsBytes(batch));

        ObjectNode receive = JSON.createObjectNode().put("QueueUrl", "u").put("MaxNumberOfMessages", 10)
                .put("WaitTimeSeconds", 20).put("VisibilityTimeout", 300);
        assertThat(SqsRequests.receiveMessage("u", 10, 20, 300)).isEqualTo(JSON.writeValueAsBytes(receive));

        ObjectNode delete = JSON.createObjectNode().put("QueueUrl", "u");
        delete.putArray("Entries").addObject().put("Id", "d0").put("ReceiptHandle", "h/0+=");
        assertThat(SqsRequests.deleteMessageBatch("u", List.of("h/0+="))).isEqualTo(JSON.writeValueAsBytes(delete));

        ObjectNode single = JSON.createObjectNode().put("QueueUrl", "u").put("MessageBody", "m");
        assertThat(SqsRequests.sendMessage("u", "m", null)).isEqualTo(JSON.writeValueAsBytes(single));

        ObjectNode create = JSON.createObjectNode().put("QueueName", "q.fifo");
        create.putObject("Attributes").put("FifoQueue", "true");
        assertThat(SqsRequests.createQueue("q.fifo", Map.of("FifoQueue", "true")))
                .isEqualTo(JSON.writeValueAsBytes(create));
    }
}
