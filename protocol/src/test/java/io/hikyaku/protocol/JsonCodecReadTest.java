package io.hikyaku.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Request bodies read by TreeReader give exactly Jackson's tree (same node classes, same values),
 * and whatever TreeReader declines (valid or not) is left to Jackson, so errors stay Jackson's.
 */
class JsonCodecReadTest {

    /** Printable ASCII plus every character that needs an escape. */
    private static final String CHARS = "aZ09 _-.:/\"\\\n\r\t\b\f\u0000\u001f\u007f{}[],";

    @Test
    void randomBodiesTheReaderTakesAreJacksonsTreesAndItTakesEveryPlainOne() throws Exception {
        Random random = new Random(10);
        int taken = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            boolean plain = random.nextInt(3) > 0; // only what TreeReader covers: it must take these
            object(random, sb, 0, plain);
            byte[] body = sb.toString().getBytes(StandardCharsets.US_ASCII);
            ObjectNode fast = TreeReader.readObject(body);
            if (plain) {
                assertThat(fast).as("plain body %s", sb).isNotNull();
            }
            if (fast != null) {
                taken++;
                assertSameTree(fast, JsonCodec.MAPPER.readTree(body), sb.toString());
            }
        }
        assertThat(taken).isGreaterThan(13_000);
    }

    @Test
    void mutatedBodiesAreEitherReadAsJacksonReadsThemOrLeftToJackson() throws Exception {
        Random random = new Random(11);
        int declined = 0;
        for (int i = 0; i < 30_000; i++) {
            StringBuilder sb = new StringBuilder();
            object(random, sb, 0, random.nextBoolean());
            mutate(random, sb);
            byte[] body = sb.toString().getBytes(StandardCharsets.US_ASCII);
            ObjectNode fast = TreeReader.readObject(body);
            if (fast == null) {
                declined++;
                continue;
            }
            JsonNode jackson;
            try {
                jackson = JsonCodec.MAPPER.readTree(body);
            } catch (Exception e) {
                throw new AssertionError("TreeReader took a body Jackson refuses: " + sb, e);
            }
            assertSameTree(fast, jackson, sb.toString());
        }
        assertThat(declined).isGreaterThan(3_000);
    }

    @Test
    void edgeCasesAreReadAsJacksonReadsThemOrLeftToJackson() throws Exception {
        String[] bodies = {
            "{}", " {} ", "{\"a\":1}", "{\"a\":-1}", "{\"a\":0}", "{\"a\":-0}", "{\"a\":01}", "{\"a\":1.0}",
            "{\"a\":1e3}", "{\"a\":2147483647}", "{\"a\":2147483648}", "{\"a\":-2147483648}", "{\"a\":-2147483649}",
            "{\"a\":999999999999999999}", "{\"a\":9999999999999999999}", "{\"a\":-}", "{\"a\":1a}", "{\"a\":truex}",
            "{\"a\":true}", "{\"a\":false}", "{\"a\":null}", "{\"a\":nul}", "{\"a\":[]}", "{\"a\":[1,]}", "{\"a\":[,1]}",
            "{\"a\":1,}", "{,}", "{\"a\"}", "{\"a\":}", "{\"a\" : [ 1 , 2 ] }", "{\"a\":1}x", "{\"a\":1}{}", "[]", "1",
            "\"s\"", "null", "{\"a\":1,\"a\":2}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\uD83D\\uDE00\"}", "{\"a\":\"\\u00e9\"}",
            "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\t\"}", "{\"a\":\"\\/\"}", "{\"a\":\"",
            "{\"a\":\"abc", "{\"a\":\"abc\\", "{\"a\"", "{", "{\"a\":{\"b\":{}}", "{\"\":\"\"}", "{\"a\":\"\u007f\"}",
            "\t\r\n{\"a\"\t:\n1\r}\n", "{\u000b\"a\":1}", "{\"a\":1}\u0000", "{/*c*/\"a\":1}", "{'a':1}", "{a:1}",
            "{\"a\":NaN}", "{\"a\":+1}", "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
        };
        for (String s : bodies) {
            byte[] body = s.getBytes(StandardCharsets.US_ASCII);
            ObjectNode fast = TreeReader.readObject(body);
            if (fast != null) {
                assertSameTree(fast, JsonCodec.MAPPER.readTree(body), s);
            }
        }
        assertThat(TreeReader.readObject(bytes("{\"a\":1,\"a\":2}"))).as("duplicates are Jackson's").isNull();
        assertThat(TreeReader.readObject(bytes("{\"a\":1.5}"))).as("fractions are Jackson's").isNull();
        assertThat(TreeReader.readObject(bytes("{\"a\":\"\\ud800\"}")).get("a").asText()).isEqualTo("\ud800");
        assertThat(TreeReader.readObject(bytes("{\"\\ud800\":1}"))).as("surrogates in names are Jackson's").isNull();
        assertThat(TreeReader.readObject(bytes("{\"" + "n".repeat(60_000) + "\":1}"))).as("long names are Jackson's").isNull();
        assertThatThrownBy(() -> JsonCodec.parseObject(bytes("{\"" + "n".repeat(60_000) + "\":1}")))
                .isInstanceOf(ApiException.class); // over Jackson's name limit
    }

    @Test
    void aQuoteBackslashOrControlCharacterIsFoundAtEveryOffsetOfAnEightByteWord() throws Exception {
        for (String special : new String[] {"\\\"", "\\\\", "\\n", "\\u0041", "\u0001", "\u001f"}) {
            for (int before = 0; before < 20; before++) {
                for (int after = 0; after < 10; after++) {
                    String s = "{\"k\":\"" + "a".repeat(before) + special + "b".repeat(after) + "\"}";
                    byte[] body = bytes(s);
                    ObjectNode fast = TreeReader.readObject(body);
                    if (special.charAt(0) < 0x20) {
                        assertThat(fast).as("raw control character: %s", s).isNull();
                    } else {
                        assertSameTree(fast, JsonCodec.MAPPER.readTree(body), s);
                    }
                }
            }
        }
    }

    @Test
    void codecErrorsAreUnchangedForBodiesTheReaderDeclines() {
        for (String s : new String[] {"{\"a\":1,}", "{\"a\":1}x", "[]", "{\"a\":\"\t\"}", "{\"a\":01}", "{\"a\""}) {
            assertThatThrownBy(() -> JsonCodec.parseObject(bytes(s))).as(s).isInstanceOf(ApiException.class)
                    .extracting(e -> ((ApiException) e).errorType()).isEqualTo("SerializationException");
        }
        ObjectNode dup = JsonCodec.parseObject(bytes("{\"a\":1,\"b\":2,\"a\":3}"));
        assertThat(dup.toString()).isEqualTo("{\"a\":3,\"b\":2}"); // Jackson's rule: the last value wins
        assertThat(JsonCodec.parseObject(bytes("{\"n\":1.5}")).get("n").isDouble()).isTrue();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void assertSameTree(JsonNode fast, JsonNode jackson, String body) {
        assertThat(fast.getClass()).as("node class in %s", body).isEqualTo(jackson.getClass());
        assertThat(fast).as(body).isEqualTo(jackson);
        if (fast.isContainerNode()) {
            assertThat(fast.size()).isEqualTo(jackson.size());
            if (fast.isObject()) {
                Iterator<Map.Entry<String, JsonNode>> a = fast.fields();
                Iterator<Map.Entry<String, JsonNode>> b = jackson.fields();
                while (a.hasNext()) {
                    Map.Entry<String, JsonNode> x = a.next();
                    Map.Entry<String, JsonNode> y = b.next();
                    assertThat(x.getKey()).as("field order in %s", body).isEqualTo(y.getKey());
                    assertSameTree(x.getValue(), y.getValue(), body);
                }
            } else {
                for (int i = 0; i < fast.size(); i++) {
                    assertSameTree(fast.get(i), jackson.get(i), body);
                }
            }
        }
    }

    private static void object(Random r, StringBuilder sb, int depth, boolean plain) {
        sb.append('{');
        space(r, sb);
        int n = depth > 3 ? 0 : r.nextInt(5);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
                space(r, sb);
            }
            string(r, sb, plain && i < 10 ? "k" + i + "_" : "", plain);
            space(r, sb);
            sb.append(':');
            space(r, sb);
            value(r, sb, depth, plain);
            space(r, sb);
        }
        sb.append('}');
    }

    private static void value(Random r, StringBuilder sb, int depth, boolean plain) {
        switch (r.nextInt(9)) {
            case 0 -> object(r, sb, depth + 1, plain);
            case 1 -> {
                sb.append('[');
                int n = depth > 3 ? 0 : r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    space(r, sb);
                    value(r, sb, depth + 1, plain);
                    space(r, sb);
                }
                sb.append(']');
            }
            case 2 -> sb.append(r.nextBoolean() ? "true" : r.nextBoolean() ? "false" : "null");
            case 3 -> sb.append(integer(r));
            case 4 -> sb.append(plain ? integer(r) : number(r));
            default -> string(r, sb, "", false);
        }
    }

    private static String integer(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> Integer.toString(r.nextInt(20) - 10);
            case 1 -> Integer.toString(r.nextInt());
            case 2 -> Long.toString(r.nextLong() % 1_000_000_000_000_000_000L);
            case 3 -> r.nextBoolean() ? "2147483648" : "-2147483649";
            default -> r.nextBoolean() ? "2147483647" : "-2147483648";
        };
    }

    private static String number(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> Double.toString(r.nextDouble() * 1000);
            case 1 -> "1e" + r.nextInt(20);
            case 2 -> "123456789012345678901234567890";
            case 3 -> "-0";
            default -> "9223372036854775807";
        };
    }

    /**
     * A string token: random characters, escaped as JSON requires, with random escape spellings;
     * a plain key has no surrogates (TreeReader leaves those to Jackson, whose rules for names differ).
     */
    private static void string(Random r, StringBuilder sb, String prefix, boolean plainKey) {
        sb.append('"').append(prefix);
        int n = r.nextInt(4) == 0 ? r.nextInt(300) : r.nextInt(8);
        for (int i = 0; i < n; i++) {
            char c = r.nextInt(20) == 0 ? (char) r.nextInt(0x10000) : CHARS.charAt(r.nextInt(CHARS.length()));
            if (plainKey && Character.isSurrogate(c)) {
                c = 'x';
            }
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '/' && r.nextBoolean()) {
                sb.append("\\/");
            } else if (c < 0x20 || c >= 0x7f || r.nextInt(50) == 0) {
                String hex = String.format("%04x", (int) c);
                sb.append("\\u").append(r.nextBoolean() ? hex : hex.toUpperCase());
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static void space(Random r, StringBuilder sb) {
        if (r.nextInt(4) == 0) {
            sb.append(" \t\n\r".charAt(r.nextInt(4)));
        }
    }

    /** Deletes, inserts, duplicates or truncates somewhere: often invalid, sometimes still valid. */
    private static void mutate(Random r, StringBuilder sb) {
        int at = r.nextInt(sb.length());
        switch (r.nextInt(5)) {
            case 0 -> sb.deleteCharAt(at);
            case 1 -> sb.insert(at, "{}[],:\"\\ 0-1.eEtfnx\u0001\u000b".charAt(r.nextInt(21)));
            case 2 -> sb.setLength(at);
            case 3 -> sb.insert(at, sb.substring(at, Math.min(sb.length(), at + 1 + r.nextInt(12))));
            default -> sb.append(r.nextBoolean() ? " x" : ",");
        }
    }
}
