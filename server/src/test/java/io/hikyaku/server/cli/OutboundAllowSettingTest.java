package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.SecuritySettings;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --outbound-allow, HIKYAKU_OUTBOUND_ALLOW and server.outboundAllow, layered like every setting; loopback by default. */
class OutboundAllowSettingTest {

    @Test
    void loopbackOnlyUnlessGiven() {
        SecurityConfig c = SecurityConfig.defaults();
        assertThat(c.outboundAllow()).isNull();
        assertThat(c.outboundAllowList().refusal(URI.create("http://127.0.0.1:1/"))).isNull();
        assertThat(c.outboundAllowList().refusal(URI.create("http://example.com/"))).isNotNull();
    }

    @Test
    void fileThenEnvironmentThenFlagEachReplaceTheLast() {
        ConfigFile file = ConfigFile.parse("server:\n  outboundAllow: [10.0.0.0/8, hooks.example.com]\n");
        SecurityConfig c = file.security().applyTo(SecurityConfig.defaults());
        assertThat(c.outboundAllow()).isEqualTo("10.0.0.0/8,hooks.example.com");
        assertThat(c.outboundAllowList().refusal(URI.create("https://hooks.example.com/x"))).isNull();
        c = SecuritySettings.fromEnvironment(Map.of("HIKYAKU_OUTBOUND_ALLOW", ".corp")).applyTo(c);
        assertThat(c.outboundAllow()).isEqualTo(".corp");
        SecurityConfig flagged = new ServeCommand(Map.of("HIKYAKU_OUTBOUND_ALLOW", ".corp"))
                .resolveSecurity("--outbound-allow", "*");
        assertThat(flagged.outboundAllowList().refusal(URI.create("http://example.com/"))).isNull();
    }

    @Test
    void aBadEntryFailsTheStartNamingIt() {
        assertThatThrownBy(() -> new ServeCommand(Map.of()).resolveSecurity("--outbound-allow", "10.0.0.0/40"))
                .hasMessageContaining("10.0.0.0/40");
    }
}
