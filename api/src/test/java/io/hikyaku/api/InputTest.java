package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.WireProtocol;
import org.junit.jupiter.api.Test;

class InputTest {

    private static final ObjectMapper M = new ObjectMapper();

    static Input json(String text) throws Exception {
        return new Input((ObjectNode) M.readTree(text), WireProtocol.JSON);
    }

    static Input query(String text) throws Exception {
        return new Input((ObjectNode) M.readTree(text), WireProtocol.QUERY);
    }

    @Test
    void rangeErrorsEchoTheValueWithSqsWording() throws Exception {
        assertThatThrownBy(() -> json("{\"MaxNumberOfMessages\":11}")
                .intInRange("MaxNumberOfMessages", 1, 1, 10, Receiver.MAX_REASON))
                .isInstanceOf(ApiException.class)
                .hasMessage("Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.")
                .extracting(e -> ((ApiException) e).errorType()).isEqualTo("InvalidParameterValue");
    }

    @Test
    void hugeNumbersAreOutOfRange() throws Exception {
        assertThatThrownBy(() -> json("{\"WaitTimeSeconds\":123456789012345678901234567890}")
                .intInRange("WaitTimeSeconds", 0, 0, 20, Receiver.WAIT_REASON))
                .hasMessage("Value 123456789012345678901234567890 for parameter WaitTimeSeconds is invalid. "
                        + "Reason: Must be >= 0 and <= 20, if provided.");
        assertThatThrownBy(() -> json("{\"WaitTimeSeconds\":99999999999}")
                .intInRange("WaitTimeSeconds", 0, 0, 20, Receiver.WAIT_REASON))
                .hasMessageStartingWith("Value 99999999999 for parameter WaitTimeSeconds is invalid.");
    }

    @Test
    void queryAcceptsNumericAndBooleanText() throws Exception {
        Input in = query("{\"MaxNumberOfMessages\":\"5\",\"Flag\":\"TRUE\"}");
        assertThat(in.intInRange("MaxNumberOfMessages", 1, 1, 10, "r")).isEqualTo(5);
        assertThat(in.bool("Flag")).isTrue();
    }

    @Test
    void queryRejectsNonNumericTextAsInvalidValue() throws Exception {
        assertThatThrownBy(() -> query("{\"WaitTimeSeconds\":\"abc\"}").integer("WaitTimeSeconds", Receiver.WAIT_REASON))
                .hasMessage("Value abc for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
    }

    @Test
    void jsonRejectsWrongTypesAsSerializationException() throws Exception {
        assertThatThrownBy(() -> json("{\"MaxNumberOfMessages\":\"5\"}").integer("MaxNumberOfMessages", "r"))
                .isInstanceOf(ApiException.class)
                .hasMessage("STRING_VALUE can not be converted to an Integer")
                .extracting(e -> ((ApiException) e).errorType()).isEqualTo("SerializationException");
        assertThatThrownBy(() -> json("{\"QueueUrl\":{}}").string("QueueUrl"))
                .hasMessage("Start of structure or map found where not expected.");
        assertThatThrownBy(() -> json("{\"QueueUrl\":[]}").string("QueueUrl"))
                .hasMessage("Start of list found where not expected.");
        assertThatThrownBy(() -> json("{\"QueueUrl\":5}").string("QueueUrl"))
                .hasMessage("NUMBER_VALUE can not be converted to a String");
        assertThatThrownBy(() -> json("{\"AttributeNames\":\"All\"}").stringList("AttributeNames"))
                .hasMessage("STRING_VALUE can not be converted to a List");
    }

    @Test
    void missingAndEmptyRequiredStringsAreMissingParameter() throws Exception {
        assertThatThrownBy(() -> json("{}").requiredString("QueueName"))
                .hasMessage("The request must contain the parameter QueueName.")
                .extracting(e -> ((ApiException) e).errorType()).isEqualTo("MissingRequiredParameterException");
        assertThatThrownBy(() -> json("{\"MessageBody\":\"\"}").requiredString("MessageBody"))
                .hasMessage("The request must contain the parameter MessageBody.");
    }

    @Test
    void nullCountsAsAbsent() throws Exception {
        Input in = json("{\"A\":null,\"L\":null}");
        assertThat(in.string("A")).isNull();
        assertThat(in.stringList("L")).isEmpty();
        assertThat(in.has("A")).isFalse();
    }

    @Test
    void mapsAndListsKeepOrder() throws Exception {
        Input in = json("{\"M\":{\"b\":\"1\",\"a\":\"2\"},\"L\":[\"x\",\"y\"],\"E\":[{\"Id\":\"1\"}]}");
        assertThat(in.stringMap("M")).containsExactly(java.util.Map.entry("b", "1"), java.util.Map.entry("a", "2"));
        assertThat(in.stringList("L")).containsExactly("x", "y");
        assertThat(in.objectList("E")).hasSize(1);
        assertThat(in.objectList("Missing")).isNull();
    }
}
