package io.hikyaku.identity.sts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.identity.NewKeys;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.PrincipalType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** STS actions and the trust-policy stand-in. */
class StsServiceTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private final Identities ids = new IdentitiesConfig(k -> null).parse(List.of(
            Map.of("id", "111111111111", "roles", List.of(
                    Map.of("name", "worker", "trustPolicy", Map.of("Version", "2012-10-17", "Statement", List.of(Map.of(
                            "Effect", "Allow", "Principal", Map.of("AWS", "arn:aws:iam::222222222222:root"), "Action", "sts:AssumeRole")))),
                    Map.of("name", "locked", "trustPolicy", Map.of("Statement", List.of(
                            Map.of("Effect", "Allow", "Principal", Map.of("AWS", "222222222222"), "Action", "sts:AssumeRole"),
                            Map.of("Effect", "Deny", "Principal", "*", "Action", "sts:*")))))),
            Map.of("id", "222222222222")), "test");
    private final Sessions sessions = new Sessions(Clock.fixed(NOW, ZoneOffset.UTC));
    private final StsService sts = new StsService(ids, sessions, new NewKeys(), Clock.fixed(NOW, ZoneOffset.UTC), true);
    private final Principal other = Principal.accountRoot("222222222222");

    @Test
    void getCallerIdentity() {
        assertThat(sts.handle("GetCallerIdentity", Map.of(), Principal.accountRoot("111111111111")))
                .isEqualTo("<Arn>arn:aws:iam::111111111111:root</Arn><UserId>111111111111</UserId><Account>111111111111</Account>");
    }

    @Test
    void assumeRoleMintsASessionInTheRolesAccount() {
        String xml = sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/worker", "RoleSessionName", "s1",
                "DurationSeconds", "900"), other);
        String keyId = member(xml, "AccessKeyId");
        assertThat(keyId).matches("ASIA[A-Z2-7]{16}");
        assertThat(member(xml, "Expiration")).isEqualTo("2026-03-01T10:15:00Z");
        assertThat(member(xml, "Arn")).isEqualTo("arn:aws:sts::111111111111:assumed-role/worker/s1");
        assertThat(member(xml, "AssumedRoleId")).matches("AROA[A-Z2-7]{17}:s1");
        Credential session = sessions.find(keyId).orElseThrow();
        assertThat(session.principal().type()).isEqualTo(PrincipalType.ASSUMED_ROLE);
        assertThat(session.principal().accountId()).isEqualTo("111111111111");
        assertThat(session.sessionToken().matches(member(xml, "SessionToken"))).isTrue();
        assertThat(session.secret().matches(member(xml, "SecretAccessKey"))).isTrue();
    }

    @Test
    void trustPolicyDecides() {
        Map<String, String> worker = Map.of("RoleArn", "arn:aws:iam::111111111111:role/worker", "RoleSessionName", "s1");
        assertThatThrownBy(() -> sts.handle("AssumeRole", worker, Principal.accountRoot("111111111111")))
                .isInstanceOf(StsException.class).hasMessage("User: arn:aws:iam::111111111111:root is not authorized to perform: "
                        + "sts:AssumeRole on resource: arn:aws:iam::111111111111:role/worker");
        // an explicit Deny wins over the Allow
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/locked", "RoleSessionName", "s1"), other))
                .isInstanceOf(StsException.class).extracting("code").isEqualTo("AccessDenied");
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/nobody", "RoleSessionName", "s1"), other))
                .extracting("code").isEqualTo("AccessDenied");
    }

    @Test
    void theCallersSideMustAllowTooAndTrustConditionsAreEvaluated() {
        Identities two = new IdentitiesConfig(k -> null).parse(List.of(
                Map.of("id", "111111111111", "roles", List.of(Map.of("name", "tls-only", "trustPolicy", Map.of("Version", "2012-10-17",
                        "Statement", List.of(Map.of("Effect", "Allow", "Principal", Map.of("AWS", "222222222222"), "Action", "sts:AssumeRole",
                                "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "true")))))))),
                Map.of("id", "222222222222", "users", List.of(
                        Map.of("name", "bob", "accessKeys", List.of(Map.of("accessKeyId", "AKIABOB0000000000001", "secretAccessKey", "b"))),
                        Map.of("name", "carol", "accessKeys", List.of(Map.of("accessKeyId", "AKIACAROL00000000001", "secretAccessKey", "c")),
                                "policies", Map.of("assume", Map.of("Version", "2012-10-17", "Statement", List.of(Map.of("Effect", "Allow",
                                        "Action", "sts:AssumeRole", "Resource", "arn:aws:iam::111111111111:role/*")))))))), "test");
        StsService service = new StsService(two, sessions, new NewKeys(), Clock.fixed(NOW, ZoneOffset.UTC), true);
        Map<String, String> params = Map.of("RoleArn", "arn:aws:iam::111111111111:role/tls-only", "RoleSessionName", "s1");
        Map<String, List<String>> overTls = Map.of("aws:SecureTransport", List.of("true"));
        Principal bob = two.key("AKIABOB0000000000001").orElseThrow().principal();
        Principal carol = two.key("AKIACAROL00000000001").orElseThrow().principal();
        // the trust policy delegates to account 222222222222; its users need their own permission
        assertThatThrownBy(() -> service.handle("AssumeRole", params, bob, overTls)).hasMessage(
                "User: arn:aws:iam::222222222222:user/bob is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::111111111111:role/tls-only");
        assertThat(service.handle("AssumeRole", params, carol, overTls)).contains("<AccessKeyId>ASIA");
        assertThat(service.handle("AssumeRole", params, other, overTls)).contains("<AccessKeyId>ASIA"); // the account root
        // the trust policy's condition: only over TLS
        assertThatThrownBy(() -> service.handle("AssumeRole", params, carol, Map.of("aws:SecureTransport", List.of("false"))))
                .extracting("code").isEqualTo("AccessDenied");
    }

    @Test
    void withoutEnforcementAnyRoleArnWorks() {
        StsService open = new StsService(Identities.NONE, sessions, new NewKeys(), Clock.fixed(NOW, ZoneOffset.UTC), false);
        String xml = open.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::333333333333:role/any", "RoleSessionName", "t1"), other);
        assertThat(sessions.find(member(xml, "AccessKeyId")).orElseThrow().principal().accountId()).isEqualTo("333333333333");
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleSessionName", "s1"), other)).extracting("code").isEqualTo("ValidationError");
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/worker", "RoleSessionName", "a b"), other))
                .hasMessageContaining("Member must satisfy regular expression pattern");
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/worker", "RoleSessionName", "s1",
                "DurationSeconds", "7200"), other)).hasMessage("The requested DurationSeconds exceeds the MaxSessionDuration set for this role.");
        assertThatThrownBy(() -> sts.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::111111111111:role/worker", "RoleSessionName", "s1",
                "Policy", "{not json"), other)).extracting("code").isEqualTo("MalformedPolicyDocument");
        assertThatThrownBy(() -> sts.handle("Frobnicate", Map.of(), other)).isInstanceOf(StsException.class)
                .hasMessage("Could not find operation Frobnicate for version 2011-06-15").extracting("code").isEqualTo("InvalidAction");
        assertThatThrownBy(() -> sts.handle("GetCallerIdentity", Map.of(), Principal.anonymous())).extracting("code")
                .isEqualTo("MissingAuthenticationToken");
    }

    @Test
    void getSessionTokenActsAsTheCaller() {
        String xml = sts.handle("GetSessionToken", Map.of(), other);
        Credential c = sessions.find(member(xml, "AccessKeyId")).orElseThrow();
        assertThat(c.principal()).isEqualTo(other);
        assertThat(c.expiration()).isEqualTo(NOW.plusSeconds(3600)); // the root's sessions last at most an hour
    }

    private static String member(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
        assertThat(m.find()).as(name + " in " + xml).isTrue();
        return m.group(1);
    }
}
