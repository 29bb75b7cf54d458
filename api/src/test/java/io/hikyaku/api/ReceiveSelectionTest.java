package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.ReceivedMessage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceiveSelectionTest {

    private static final Map<String, MessageAttribute> ATTRS = new LinkedHashMap<>();

    static {
        ATTRS.put("General", new MessageAttribute("String", "Kenobi", null));
        ATTRS.put("Hello", new MessageAttribute("String", "There", null));
        ATTRS.put("Help.Me", new MessageAttribute("String", "Me", null));
    }

    private static final ReceivedMessage MSG = new ReceivedMessage("id", "rh", "body", ATTRS, "000000000000", 1000L,
            2, 1500L, null, null, null, "Root=1", null, null);

    private static Map<String, MessageAttribute> user(String names) throws Exception {
        return ReceiveSelection.of(InputTest.json("{\"MessageAttributeNames\":" + names + "}")).userAttributes(ATTRS);
    }

    @Test
    void messageAttributeNameFilters() throws Exception {
        assertThat(user("[]")).isEmpty();
        assertThat(user("[\"All\"]")).hasSize(3);
        assertThat(user("[\"*\"]")).hasSize(3);
        assertThat(user("[\".*\"]")).hasSize(3);
        assertThat(user("[\"Hello\"]")).containsOnlyKeys("Hello");
        assertThat(user("[\"Nope\"]")).isEmpty();
        assertThat(user("[\"Hel.*\"]")).containsOnlyKeys("Hello", "Help.Me");
        assertThat(user("[\"AWS.\", \"..foo\"]")).isEmpty();
        assertThat(Md5s.ofAttributes(user("[\"Hello\"]"))).isEqualTo("a311262e065454b75da111d535b8dacd");
    }

    @Test
    void overJsonMessageSystemAttributeNamesWins() throws Exception {
        var json = ReceiveSelection.of(InputTest.json(
                "{\"MessageSystemAttributeNames\":[\"All\"],\"AttributeNames\":[\"SenderId\"]}"));
        assertThat(json.systemAttributes(MSG).fieldNames()).toIterable().containsExactlyInAnyOrder(
                "SenderId", "SentTimestamp", "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp", "AWSTraceHeader");
        var query = ReceiveSelection.of(InputTest.query(
                "{\"MessageSystemAttributeNames\":[\"All\"],\"AttributeNames\":[\"SenderId\"]}"));
        assertThat(query.systemAttributes(MSG).fieldNames()).toIterable().containsExactly("SenderId");
    }

    @Test
    void systemAttributeValuesAreStrings() throws Exception {
        var all = ReceiveSelection.of(InputTest.json("{\"AttributeNames\":[\"All\",\"Unknown\"]}")).systemAttributes(MSG);
        assertThat(all.get("SentTimestamp").asText()).isEqualTo("1000");
        assertThat(all.get("ApproximateReceiveCount").asText()).isEqualTo("2");
        assertThat(all.has("SequenceNumber")).isFalse();
        assertThat(ReceiveSelection.of(InputTest.json("{}")).systemAttributes(MSG).isEmpty()).isTrue();
    }

    @Test
    void renderOmitsMessagesWhenEmptyAndDigestsTheSubset() throws Exception {
        var sel = ReceiveSelection.of(InputTest.json("{\"MessageAttributeNames\":[\"Hello\"]}"));
        assertThat(Receiver.render(sel, java.util.List.of()).has("Messages")).isFalse();
        var out = Receiver.render(sel, java.util.List.of(MSG));
        var m = out.get("Messages").get(0);
        assertThat(m.get("MD5OfBody").asText()).isEqualTo(Md5s.ofBody("body"));
        assertThat(m.get("MD5OfMessageAttributes").asText()).isEqualTo("a311262e065454b75da111d535b8dacd");
        assertThat(m.get("MessageAttributes").get("Hello").get("StringValue").asText()).isEqualTo("There");
        assertThat(m.has("Attributes")).isFalse();
    }
}
