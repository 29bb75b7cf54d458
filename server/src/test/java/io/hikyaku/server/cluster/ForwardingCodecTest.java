package io.hikyaku.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A forwarded request and its answer arrive on the other node exactly as they were. */
class ForwardingCodecTest {

    static byte[] everyByte() {
        byte[] body = new byte[512];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i; // 0x00..0xFF twice: no text assumption anywhere
        }
        return body;
    }

    @Test
    void aRequestKeepsEveryFieldHeaderOrderRepeatsAndBinaryBody() {
        List<Map.Entry<String, String>> lines = List.of(
                Map.entry("host", "sqs.example:9501"),
                Map.entry("x-amz-date", "20261207T113000Z"),
                Map.entry("x-custom", "first"),
                Map.entry("authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261207/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=ab"),
                Map.entry("x-custom", "second, with comma"),
                Map.entry("x-unicode", "caf\u00e9 \u65e5\u672c"));
        Map<String, String> headers = new HashMap<>();
        lines.forEach(l -> headers.put(l.getKey(), l.getValue()));
        HttpRequestData sent = new HttpRequestData("POST", "/000000000000/a b+c", "Action=SendMessage&x=%2F", headers,
                everyByte(), "/000000000000/a%20b+c", lines, "192.0.2.7", true);

        ForwardingCodec.Forwarded got = ForwardingCodec.decodeRequest(ForwardingCodec.encodeRequest("req-42", sent));

        assertThat(got.requestId()).isEqualTo("req-42");
        HttpRequestData r = got.request();
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/000000000000/a b+c");
        assertThat(r.rawPath()).isEqualTo("/000000000000/a%20b+c");
        assertThat(r.rawQuery()).isEqualTo("Action=SendMessage&x=%2F");
        assertThat(r.headerLines()).containsExactlyElementsOf(lines);
        assertThat(r.header("x-custom")).isEqualTo("second, with comma"); // the last value wins, as on arrival
        assertThat(r.header("host")).isEqualTo("sqs.example:9501");
        assertThat(r.body()).isEqualTo(everyByte());
        assertThat(r.sourceIp()).isEqualTo("192.0.2.7");
        assertThat(r.secure()).isTrue();
    }

    @Test
    void anUnknownPeerEmptyBodyAndPlainHttpRoundTrip() {
        HttpRequestData sent = new HttpRequestData("GET", "/", "", Map.of(), new byte[0], "/", List.of(), null, false);
        HttpRequestData r = ForwardingCodec.decodeRequest(ForwardingCodec.encodeRequest("r", sent)).request();
        assertThat(r.sourceIp()).isNull();
        assertThat(r.secure()).isFalse();
        assertThat(r.body()).isEmpty();
        assertThat(r.headerLines()).isEmpty();
    }

    @Test
    void aResponseKeepsStatusHeadersAndBinaryBody() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/x-amz-json-1.0");
        headers.put("x-amzn-query-error", "AWS.SimpleQueueService.NonExistentQueue;Sender");
        HttpResponseData got = ForwardingCodec.decodeResponse(ForwardingCodec.encodeResponse(
                new HttpResponseData(400, headers, everyByte())));
        assertThat(got.status()).isEqualTo(400);
        assertThat(got.headers()).containsExactlyEntriesOf(headers);
        assertThat(got.body()).isEqualTo(everyByte());
    }

    @Test
    void cutShortTrailingOrForeignBytesAreRefused() {
        byte[] whole = ForwardingCodec.encodeRequest("r", new HttpRequestData("POST", "/", "", Map.of("host", "h"), everyByte()));
        assertThatThrownBy(() -> ForwardingCodec.decodeRequest(Arrays.copyOf(whole, whole.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ForwardingCodec.decodeRequest(Arrays.copyOf(whole, whole.length + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after its end");
        assertThatThrownBy(() -> ForwardingCodec.decodeRequest(Arrays.copyOf(whole, 9)))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] response = ForwardingCodec.encodeResponse(new HttpResponseData(200, Map.of(), new byte[0]));
        assertThatThrownBy(() -> ForwardingCodec.decodeRequest(response))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version byte");
        assertThatThrownBy(() -> ForwardingCodec.decodeResponse(whole))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version byte");
        assertThatThrownBy(() -> ForwardingCodec.decodeRequest(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
