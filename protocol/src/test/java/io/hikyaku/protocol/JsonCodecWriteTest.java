package io.hikyaku.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Responses (TreeWriter into the reused per-thread buffer) are byte for byte what Jackson writes on its own. */
class JsonCodecWriteTest {

    private static final String ALPHABET = "aZ09 \"\\/\n\r\t\b\f\u0000\u001f\u007f\u00e9\u4e2d\ud83d\ude00\ud800\udfff";

    @Test
    void randomTreesOfEverySizeMatchJacksonsOwnBytes() throws Exception {
        Random random = new Random(8);
        for (int i = 0; i < 300; i++) {
            ObjectNode tree = tree(random, 3, i % 50 == 0 ? 40_000 : 40);
            assertThat(JsonCodec.write(tree)).as("tree %d", i).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(tree));
            ResponseBuffer direct = new ResponseBuffer();
            assertThat(TreeWriter.write(tree, direct)).as("written without Jackson").isTrue();
            assertThat(direct.toByteArray()).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(tree));
        }
    }

    @Test
    void loneSurrogatesAndNonBmpCharactersAreWrittenAsJacksonWritesThem() throws Exception {
        for (String body : new String[] {"lone \ud800 then \ud83d\ude00", "\udc00", "end \ud800", "\ud800\ud800\udc00",
                "\udfff\ud800", "\u07ff\u0800\uffff\u0080"}) {
            ObjectNode tree = JsonCodec.MAPPER.createObjectNode().put("Body", body);
            assertThat(JsonCodec.write(tree)).as(body).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(tree));
        }
    }

    @Test
    void everyCharOfTheBasicPlaneIsWrittenAsJacksonWritesIt() throws Exception {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            all.append(c);
        }
        ObjectNode tree = JsonCodec.MAPPER.createObjectNode().put(all.substring(0, 300), all.toString());
        ResponseBuffer direct = new ResponseBuffer();
        assertThat(TreeWriter.write(tree, direct)).isTrue();
        assertThat(direct.toByteArray()).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(tree));
    }

    @Test
    void nodeTypesTheTreeWriterDoesNotCoverFallBackToJackson() throws Exception {
        ObjectNode tree = JsonCodec.MAPPER.createObjectNode().put("n", 1.5).put("b", new byte[] {1, 2, 3});
        tree.putNull("z");
        tree.putArray("a").add(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(TreeWriter.write(tree, new ResponseBuffer())).isFalse();
        assertThat(JsonCodec.write(tree)).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(tree));
    }

    @Test
    void aLargeResponseIsWholeAndTheNextSmallOneIsNotPolluted() throws Exception {
        ObjectNode big = JsonCodec.MAPPER.createObjectNode().put("Body", "x".repeat(3 * 1024 * 1024));
        assertThat(JsonCodec.write(big)).isEqualTo(JsonCodec.MAPPER.writeValueAsBytes(big));
        ObjectNode small = JsonCodec.MAPPER.createObjectNode().put("MessageId", "m");
        assertThat(new String(JsonCodec.write(small), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"MessageId\":\"m\"}");
    }

    @Test
    void theBufferLetsGoOfWhatALargeResponseGrewItTo() {
        ResponseBuffer buffer = new ResponseBuffer();
        buffer.write(new byte[ResponseBuffer.KEPT_BYTES + 1], 0, ResponseBuffer.KEPT_BYTES + 1);
        assertThat(buffer.toByteArray()).hasSize(ResponseBuffer.KEPT_BYTES + 1);
        buffer.reset();
        assertThat(buffer.capacity()).isEqualTo(ResponseBuffer.INITIAL_BYTES);
        buffer.write(7);
        assertThat(buffer.toByteArray()).containsExactly(7);
    }

    private static ObjectNode tree(Random random, int depth, int maxString) {
        ObjectNode node = JsonCodec.MAPPER.createObjectNode();
        int fields = 1 + random.nextInt(6);
        for (int f = 0; f < fields; f++) {
            String name = text(random, 12);
            switch (depth == 0 ? random.nextInt(4) : random.nextInt(6)) {
                case 0 -> node.put(name, text(random, maxString));
                case 1 -> node.put(name, random.nextLong());
                case 2 -> node.put(name, random.nextInt());
                case 3 -> {
                    if (random.nextInt(8) == 0) {
                        node.putNull(name);
                    } else {
                        node.put(name, random.nextBoolean());
                    }
                }
                case 4 -> node.set(name, tree(random, depth - 1, maxString));
                default -> {
                    ArrayNode array = node.putArray(name);
                    int n = random.nextInt(4);
                    for (int e = 0; e < n; e++) {
                        array.add(tree(random, depth - 1, maxString));
                    }
                    array.add(text(random, maxString));
                }
            }
        }
        return node;
    }

    private static String text(Random random, int max) {
        int n = random.nextInt(max + 1);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
