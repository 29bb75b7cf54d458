package io.hikyaku.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class EventPatternTest {

    private static ObjectNode record(String body) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        r.put("messageId", "m1").put("body", body);
        r.putObject("attributes").put("ApproximateReceiveCount", "1").put("MessageGroupId", "g1");
        r.putObject("messageAttributes").putObject("kind").put("stringValue", "order").put("dataType", "String");
        return r;
    }

    private static boolean matches(String pattern, String body) throws InvalidPatternException {
        return EventPattern.compile(pattern).matches(record(body));
    }

    @Test
    void exactValuesOnAJsonBodyAreOredAndKeysAnded() throws Exception {
        String p = "{\"body\": {\"RequestCode\": [\"AAAA\", \"BBBB\"], \"Region\": [\"eu\"]}}";
        assertThat(matches(p, "{\"RequestCode\":\"BBBB\",\"Region\":\"eu\"}")).isTrue();
        assertThat(matches(p, "{\"RequestCode\":\"CCCC\",\"Region\":\"eu\"}")).isFalse();
        assertThat(matches(p, "{\"RequestCode\":\"AAAA\"}")).isFalse();
    }

    @Test
    void numericRangesPrefixSuffixIgnoreCaseAndAnythingBut() throws Exception {
        assertThat(matches("{\"body\":{\"n\":[{\"numeric\":[\">\",9999]}]}}", "{\"n\":10000}")).isTrue();
        assertThat(matches("{\"body\":{\"n\":[{\"numeric\":[\">\",9999]}]}}", "{\"n\":9999}")).isFalse();
        assertThat(matches("{\"body\":{\"n\":[{\"numeric\":[\">=\",1,\"<\",5]}]}}", "{\"n\":4.5}")).isTrue();
        assertThat(matches("{\"body\":{\"n\":[{\"numeric\":[\"=\",100]}]}}", "{\"n\":\"100\"}")).isFalse();
        assertThat(matches("{\"body\":{\"s\":[{\"prefix\":\"us-\"}]}}", "{\"s\":\"us-east-1\"}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[{\"suffix\":\".png\"}]}}", "{\"s\":\"a.jpg\"}")).isFalse();
        assertThat(matches("{\"body\":{\"s\":[{\"equals-ignore-case\":\"ABC\"}]}}", "{\"s\":\"aBc\"}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[{\"anything-but\":[\"a\",\"b\"]}]}}", "{\"s\":\"c\"}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[{\"anything-but\":[\"a\",\"b\"]}]}}", "{\"s\":\"a\"}")).isFalse();
        assertThat(matches("{\"body\":{\"s\":[{\"anything-but\":{\"prefix\":\"x\"}}]}}", "{\"s\":\"xy\"}")).isFalse();
        assertThat(matches("{\"body\":{\"s\":[{\"anything-but\":\"a\"}]}}", "{}")).isFalse(); // needs the field
    }

    @Test
    void existsNullEmptyAndArrays() throws Exception {
        assertThat(matches("{\"body\":{\"s\":[{\"exists\":true}]}}", "{\"s\":1}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[{\"exists\":false}]}}", "{\"t\":1}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[{\"exists\":false}]}}", "{\"s\":1}")).isFalse();
        assertThat(matches("{\"body\":{\"s\":[null]}}", "{\"s\":null}")).isTrue();
        assertThat(matches("{\"body\":{\"s\":[\"\"]}}", "{\"s\":\"\"}")).isTrue();
        assertThat(matches("{\"body\":{\"tags\":[\"b\"]}}", "{\"tags\":[\"a\",\"b\"]}")).isTrue();
    }

    @Test
    void orAcrossKeysAndMetadata() throws Exception {
        String p = "{\"$or\":[{\"body\":{\"a\":[1]}},{\"attributes\":{\"MessageGroupId\":[\"g1\"]}}]}";
        assertThat(matches(p, "{\"a\":2}")).isTrue();
        assertThat(matches("{\"messageAttributes\":{\"kind\":{\"stringValue\":[\"order\"]}}}", "x")).isTrue();
        assertThat(matches("{\"messageAttributes\":{\"kind\":{\"stringValue\":[\"refund\"]}}}", "x")).isFalse();
    }

    @Test
    void plainStringBodiesMatchOnlyPlainStringRulesAsLambdaDocuments() throws Exception {
        assertThat(matches("{\"body\":[{\"prefix\":\"Result: \"}]}", "Result: ok")).isTrue();
        assertThat(matches("{\"body\":[\"{\\\"a\\\":1}\"]}", "{\"a\":1}")).isFalse(); // JSON body, plain rule: dropped
        assertThat(matches("{\"body\":{\"a\":[1]}}", "not json")).isFalse();         // plain body, JSON rule: dropped
    }

    @Test
    void invalidPatternsAreRefused() {
        for (String bad : new String[] {"not json", "[]", "{}", "{\"body\":\"x\"}", "{\"body\":{\"a\":[]}}",
                "{\"body\":{\"a\":[{\"numeric\":[\">\",\"x\"]}]}}", "{\"body\":{\"a\":[{\"numeric\":[\"<\",1,\">\",5]}]}}",
                "{\"body\":{\"a\":[{\"wildcard\":\"*\"}]}}", "{\"body\":{\"a\":[{\"exists\":\"yes\"}]}}",
                "{\"$or\":[{\"a\":[1]}]}"}) {
            assertThatThrownBy(() -> EventPattern.compile(bad)).as(bad).isInstanceOf(InvalidPatternException.class);
        }
    }
}
