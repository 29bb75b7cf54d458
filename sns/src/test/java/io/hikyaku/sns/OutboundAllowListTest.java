package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class OutboundAllowListTest {

    private static String refusal(OutboundAllowList list, String url) {
        return list.refusal(URI.create(url));
    }

    @Test
    void theDefaultAllowsLoopbackOnly() {
        OutboundAllowList list = OutboundAllowList.loopbackOnly();
        assertThat(refusal(list, "http://127.0.0.1:8080/hook")).isNull();
        assertThat(refusal(list, "http://127.5.6.7/")).isNull();
        assertThat(refusal(list, "http://localhost:9000/")).isNull();
        assertThat(refusal(list, "http://[::1]:9000/")).isNull();
        assertThat(refusal(list, "http://example.com/")).contains("example.com").contains("allow-list");
        assertThat(refusal(list, "http://169.254.169.254/latest/meta-data/")).contains("169.254.169.254");
        assertThat(refusal(list, "http://10.0.0.1/")).isNotNull();
        assertThat(refusal(list, "http://[fd00::1]/")).isNotNull();
        assertThat(refusal(list, "http://[::ffff:169.254.169.254]/")).isNotNull();
        assertThat(refusal(list, "http://2130706433/")).contains("not an IP address"); // 127.0.0.1 as one number
        assertThat(refusal(list, "http://localhost.example.com/")).isNotNull();
    }

    @Test
    void cidrsNamesSuffixesAndAnywhere() {
        OutboundAllowList list = OutboundAllowList.parse("10.1.0.0/16, hooks.example.com, .corp.example, *.svc.local, fd00::/8");
        assertThat(refusal(list, "https://10.1.200.3/")).isNull();
        assertThat(refusal(list, "https://10.2.0.1/")).isNotNull();
        assertThat(refusal(list, "https://HOOKS.example.com/x")).isNull();
        assertThat(refusal(list, "https://evil-hooks.example.com/")).isNotNull();
        assertThat(refusal(list, "https://a.b.corp.example/")).isNull();
        assertThat(refusal(list, "https://corp.example/")).isNotNull();
        assertThat(refusal(list, "https://q.svc.local/")).isNull();
        assertThat(refusal(list, "http://[fd12::3]/")).isNull();
        assertThat(refusal(list, "http://127.0.0.1/")).isNotNull(); // loopback is only in the default
        assertThat(refusal(OutboundAllowList.parse("*"), "http://example.com/")).isNull();
    }

    @Test
    void badEntriesAreRefusedAtStart() {
        assertThatThrownBy(() -> OutboundAllowList.parse("10.0.0.0/33")).hasMessageContaining("prefix length");
        assertThatThrownBy(() -> OutboundAllowList.parse("exa mple.com")).hasMessageContaining("exa mple.com");
        assertThatThrownBy(() -> OutboundAllowList.parse("http://x/")).hasMessageContaining("http://x/");
    }

    @Test
    void resolvingAnAllowedNameNeverLandsOnLinkLocal() throws Exception {
        OutboundAllowList list = OutboundAllowList.parse("localhost");
        assertThat(list.resolve(URI.create("http://localhost:1/")).isLoopbackAddress()).isTrue();
        assertThatThrownBy(() -> list.resolve(URI.create("http://169.254.169.254/")))
                .isInstanceOf(OutboundAllowList.Refused.class);
    }
}
