package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.SecuritySettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --outbound-ca, HIKYAKU_OUTBOUND_CA and server.outboundCa, layered like every setting; none by default. */
class OutboundCaSettingTest {

    @Test
    void fileThenEnvironmentThenFlagEachReplaceTheLast() {
        assertThat(SecurityConfig.defaults().outboundCa()).isNull();
        SecurityConfig c = ConfigFile.parse("server:\n  outboundCa: /etc/hikyaku/corp-ca.pem\n").security()
                .applyTo(SecurityConfig.defaults());
        assertThat(c.outboundCa()).isEqualTo(Path.of("/etc/hikyaku/corp-ca.pem"));
        c = SecuritySettings.fromEnvironment(Map.of("HIKYAKU_OUTBOUND_CA", "/env/ca.pem")).applyTo(c);
        assertThat(c.outboundCa()).isEqualTo(Path.of("/env/ca.pem"));
        assertThat(c.withOutboundAllow("*").outboundCa()).as("kept by the other withX").isEqualTo(Path.of("/env/ca.pem"));
        SecurityConfig flagged = new ServeCommand(Map.of("HIKYAKU_OUTBOUND_CA", "/env/ca.pem"))
                .resolveSecurity("--outbound-ca", "/flag/ca.pem");
        assertThat(flagged.outboundCa()).isEqualTo(Path.of("/flag/ca.pem"));
    }
}
