package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON and CBOR encodings of one output tree, byte for byte. */
class WireEncodersTest {

    private static Map<String, Object> tree() {
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("Timestamp", Instant.ofEpochSecond(1_700_000_000L));
        point.put("Sum", 2.5);
        point.put("SampleCount", 3L);
        Map<String, Object> precise = new LinkedHashMap<>();
        precise.put("Timestamp", Instant.ofEpochMilli(1_700_000_000_250L));
        precise.put("Maximum", 7);
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("Label", "NumberOfMessagesSent");
        tree.put("Datapoints", List.of(point, precise));
        tree.put("Truncated", false);
        return tree;
    }

    @Test
    void jsonWritesTimestampsAsEpochSeconds() {
        assertThat(new String(WireEncoders.json(tree()), StandardCharsets.UTF_8)).isEqualTo(
                "{\"Label\":\"NumberOfMessagesSent\",\"Datapoints\":[{\"Timestamp\":1700000000,\"Sum\":2.5,\"SampleCount\":3},"
                        + "{\"Timestamp\":1.70000000025E9,\"Maximum\":7}],\"Truncated\":false}");
    }

    /** The same tokens as JSON, each timestamp behind tag 1 (0xc1). */
    @Test
    void cborTagsTimestamps() {
        assertThat(HexFormat.of().formatHex(WireEncoders.cbor(tree()))).isEqualTo(String.join("",
                "bf", "654c6162656c", "744e756d6265724f664d6573736167657353656e74", // {"Label": "NumberOfMessagesSent"
                "6a44617461706f696e7473", "9f", // "Datapoints": [
                "bf", "6954696d657374616d70", "c1", "1a6553f100", // {"Timestamp": 1(1700000000)
                "6353756d", "fb4004000000000000", "6b53616d706c65436f756e74", "03", "ff", // "Sum": 2.5, "SampleCount": 3}
                "bf", "6954696d657374616d70", "c1", "fb41d954fc40100000", // {"Timestamp": 1(1700000000.25)
                "674d6178696d756d", "07", "ff", "ff", // "Maximum": 7}]
                "695472756e6361746564", "f4", "ff")); // "Truncated": false}
    }
}
