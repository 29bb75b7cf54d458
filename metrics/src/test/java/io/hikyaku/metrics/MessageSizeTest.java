package io.hikyaku.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class MessageSizeTest {

    @Test
    void bodyPlusAttributeNamesTypesAndValuesInUtf8Bytes() throws Exception {
        ObjectNode m = (ObjectNode) new ObjectMapper().readTree("""
                {"MessageBody":"h\u00e9llo \u20ac \ud83d\ude00",
                 "MessageAttributes":{"k":{"DataType":"String","StringValue":"vv"},
                                      "b":{"DataType":"Binary","BinaryValue":"AAEC"}}}""");
        // body: h(1) é(2) llo(3) space(1) €(3) space(1) 😀(4) = 15
        // k + String + vv = 1 + 6 + 2 = 9; b + Binary + 3 decoded bytes = 1 + 6 + 3 = 10
        assertThat(Exchange.MessageSize.of(m)).isEqualTo(15 + 9 + 10);
    }
}
