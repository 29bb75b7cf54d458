package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestSignerTest {

    @Test
    void signsTimestampDotBodyWithHmacSha256() {
        // HMAC-SHA256("key", "1700000000.hello"), computed independently with Python's hmac module
        assertThat(RequestSigner.signature("key", 1_700_000_000L, "hello".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("v1=4d583a269f4f276a3fa80ff31b5a01879a848096983222a17893d198418939aa");
    }
}
