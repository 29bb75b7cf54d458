package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.MessageAttribute;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Md5sTest {

    private static MessageAttribute s(String v) {
        return new MessageAttribute("String", v, null);
    }

    @Test
    void bodyDigestIsHexMd5OfUtf8() {
        assertThat(Md5s.ofBody("test")).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(Md5s.ofBody("msg")).isEqualTo("6e2baaf3b97dbeef01c0043275f9a0e7");
    }

    @Test
    void attributeDigestMatchesAwsVectors() {
        assertThat(Md5s.ofAttributes(Map.of("Foo", s("Bar")))).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        Map<String, MessageAttribute> three = new LinkedHashMap<>();
        three.put("Help.Me", s("Me"));
        three.put("Hello", s("There"));
        three.put("General", s("Kenobi"));
        assertThat(Md5s.ofAttributes(three)).isEqualTo("4c360f3fdafd970e05fae2f149d997f5");
        assertThat(Md5s.ofAttributes(Map.of("Hello", s("There")))).isEqualTo("a311262e065454b75da111d535b8dacd");
    }

    @Test
    void noAttributesGiveNoDigest() {
        assertThat(Md5s.ofAttributes(Map.of())).isNull();
        assertThat(Md5s.ofAttributes(null)).isNull();
    }

    @Test
    void binaryUsesItsOwnTransportByte() {
        String asBinary = Md5s.ofAttributes(Map.of("b", new MessageAttribute("Binary", null, "x".getBytes())));
        String asString = Md5s.ofAttributes(Map.of("b", new MessageAttribute("Binary", "x", null)));
        assertThat(asBinary).hasSize(32).isNotEqualTo(asString);
    }
}
