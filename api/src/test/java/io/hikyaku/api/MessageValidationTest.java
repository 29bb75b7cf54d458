package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.protocol.ApiException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageValidationTest {

    private static final CallContext CTX = new CallContext("000000000000", "us-east-1", "http://h", null, "r");

    private static String errorType(Throwable e) {
        return ((ApiException) e).errorType();
    }

    @Test
    void bodyCharacterSet() {
        assertThat(MessageContent.isValid("hello\t\n\r \uD7FF\uE000\uFFFD\uD83D\uDE00")).isTrue();
        for (String bad : new String[] {"\u0000", "\u0008", "\u0013", "\uFFFF", "\uD800"}) {
            assertThat(MessageContent.isValid("a" + bad)).as("%h", bad).isFalse();
        }
    }

    @Test
    void attributeNameRules() {
        assertThat(AttributeNames.isValid("attr.1øßä")).isTrue();
        assertThat(AttributeNames.isValid("a-b_c.d")).isTrue();
        for (String bad : new String[] {"AWS.x", "amazon.x", ".x", "x.", "a..b", "a!", "a\"", "a§", "a(", "a?", "",
                "x".repeat(257)}) {
            assertThat(AttributeNames.isValid(bad)).as(bad).isFalse();
        }
        assertThat(AttributeNames.isValid("x".repeat(256))).isTrue();
    }

    @Test
    void fifoIdSyntax() {
        assertThat(FifoIds.isValid("group-1!~")).isTrue();
        assertThat(FifoIds.isValid("")).isFalse();
        assertThat(FifoIds.isValid("a b")).isFalse();
        assertThat(FifoIds.isValid("x".repeat(129))).isFalse();
        assertThatThrownBy(() -> FifoIds.check("MessageGroupId", "a b"))
                .hasMessage("Value a b for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include "
                        + "alphanumeric and punctuation characters. 1 to 128 in length.");
    }

    @Test
    void emptyStringAttributeValueIsRefusedInAwsWords() throws Exception {
        Input in = InputTest.json("{\"MessageAttributes\":{\"ErrorDetails\":{\"DataType\":\"String\",\"StringValue\":\"\"}}}");
        assertThatThrownBy(() -> MessageAttributesReader.userAttributes(in))
                .hasMessage("Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.")
                .satisfies(e -> assertThat(errorType(e)).isEqualTo("InvalidParameterValue"));
    }

    @Test
    void attributeTypesAndValues() throws Exception {
        Map<String, MessageAttribute> ok = MessageAttributesReader.userAttributes(InputTest.json(
                "{\"MessageAttributes\":{\"n\":{\"DataType\":\"Number.int\",\"StringValue\":\"-1.5e3\"},"
                        + "\"b\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQID\"}}}"));
        assertThat(ok.get("n").stringValue()).isEqualTo("-1.5e3");
        assertThat(ok.get("b").binaryValue()).containsExactly(1, 2, 3);

        for (String bad : new String[] {
                "{\"x\":{\"DataType\":\"Invalid\",\"StringValue\":\"v\"}}",
                "{\"x\":{\"DataType\":\"String\",\"StringValue\":\"a\\u0008\"}}",
                "{\"x\":{\"DataType\":\"String\",\"StringValue\":\"a\\u000b\"}}",
                "{\"x\":{\"DataType\":\"Number\",\"StringValue\":\"abc\"}}",
                "{\"x\":{\"StringValue\":\"v\"}}",
                "{\"AWS.x\":{\"DataType\":\"String\",\"StringValue\":\"v\"}}",
                "{\"x\":{\"DataType\":\"String." + "l".repeat(260) + "\",\"StringValue\":\"v\"}}"}) {
            Input in = InputTest.json("{\"MessageAttributes\":" + bad + "}");
            assertThatThrownBy(() -> MessageAttributesReader.userAttributes(in)).as(bad)
                    .satisfies(e -> assertThat(errorType(e)).isEqualTo("InvalidParameterValue"));
        }
        assertThatThrownBy(() -> MessageAttributesReader.userAttributes(InputTest.json(
                "{\"MessageAttributes\":{\"Age\":{\"DataType\":\"Number\",\"StringValue\":\"Hello\"}}}")))
                .hasMessage("Can't cast the value of message (user) attribute 'Age' to a number.");
    }

    @Test
    void atMostTenAttributes() throws Exception {
        StringBuilder json = new StringBuilder("{\"MessageAttributes\":{");
        for (int i = 0; i < 11; i++) {
            json.append(i == 0 ? "" : ",").append("\"a").append(i).append("\":{\"DataType\":\"String\",\"StringValue\":\"v\"}");
        }
        Input in = InputTest.json(json.append("}}").toString());
        assertThatThrownBy(() -> MessageAttributesReader.userAttributes(in))
                .hasMessage("Number of message attributes [11] exceeds the allowed maximum [10].");
    }

    @Test
    void sqsNumbers() {
        assertThat(MessageAttributesReader.isSqsNumber("123")).isTrue();
        assertThat(MessageAttributesReader.isSqsNumber("1e126")).isTrue();
        assertThat(MessageAttributesReader.isSqsNumber("1e127")).isFalse();
        assertThat(MessageAttributesReader.isSqsNumber("1".repeat(39))).isFalse();
        assertThat(MessageAttributesReader.isSqsNumber("0.0")).isTrue();
        assertThat(MessageAttributesReader.isSqsNumber("12a")).isFalse();
    }

    @Test
    void sendEntryChecks() throws Exception {
        Ids ids = new Ids();
        assertThatThrownBy(() -> SendEntries.read(InputTest.json("{\"MessageBody\":\"\"}"), CTX, ids))
                .hasMessage("The request must contain the parameter MessageBody.")
                .satisfies(e -> assertThat(errorType(e)).isEqualTo("MissingRequiredParameterException"));
        assertThatThrownBy(() -> SendEntries.read(InputTest.json("{\"MessageBody\":\"\\u0001\"}"), CTX, ids))
                .satisfies(e -> assertThat(errorType(e)).isEqualTo("InvalidMessageContents"));
        assertThatThrownBy(() -> SendEntries.read(InputTest.json("{\"MessageBody\":\"x\",\"DelaySeconds\":901}"), CTX, ids))
                .hasMessage("Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.");
        assertThatThrownBy(() -> SendEntries.read(InputTest.json("{\"MessageBody\":\"x\",\"MessageGroupId\":\"\"}"), CTX, ids))
                .hasMessageStartingWith("Value  for parameter MessageGroupId is invalid.");

        SendMessage m = SendEntries.read(InputTest.query("{\"MessageBody\":\"x\",\"DelaySeconds\":\"3\","
                + "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"String\",\"StringValue\":\"Root=1\"}}}"), CTX, ids);
        assertThat(m.delaySeconds()).isEqualTo(3);
        assertThat(m.awsTraceHeader()).isEqualTo("Root=1");
        assertThat(m.senderId()).isEqualTo("000000000000");
        assertThat(m.messageId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(m.attributes()).isNull();
    }

    @Test
    void onlyAwsTraceHeaderIsASendableSystemAttribute() throws Exception {
        assertThatThrownBy(() -> MessageAttributesReader.traceHeader(InputTest.json(
                "{\"MessageSystemAttributes\":{\"SenderId\":{\"DataType\":\"String\",\"StringValue\":\"x\"}}}")))
                .satisfies(e -> assertThat(errorType(e)).isEqualTo("InvalidParameterValue"));
    }
}
