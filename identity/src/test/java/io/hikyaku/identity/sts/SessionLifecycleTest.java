package io.hikyaku.identity.sts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.identity.NewKeys;
import io.hikyaku.identity.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a temporary credential may do and how long it lives: GetSessionToken credentials cannot mint
 * more, a reload that removes the parent key, user or role ends its sessions at once, quotas per
 * principal and per account (expired sessions stop counting at once), malformed session policies.
 */
class SessionLifecycleTest {

    static final String BOB_KEY = "AKIABOB0000000000001";
    static final String WORKER = "arn:aws:iam::111111111111:role/worker";

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T10:00:00Z"));
    private final Clock clock = new Clock() {
        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public Instant instant() { return now.get(); }
    };
    private final AtomicReference<Identities> identities = new AtomicReference<>(identities(true, true));
    private final Sessions sessions = new Sessions(clock);
    private final StsService sts = new StsService(identities::get, sessions, new NewKeys(), clock, true);

    /** Account 111111111111 with user bob (key {@link #BOB_KEY}, may assume roles) and role worker trusting the account. */
    static Identities identities(boolean withBob, boolean withWorker) {
        List<Object> users = new ArrayList<>();
        if (withBob) {
            users.add(Map.of("name", "bob", "accessKeys", List.of(Map.of("accessKeyId", BOB_KEY, "secretAccessKey", "b")),
                    "policies", Map.of("assume", Map.of("Version", "2012-10-17", "Statement", List.of(Map.of("Effect", "Allow",
                            "Action", "sts:AssumeRole", "Resource", "*"))))));
        }
        for (int i = 0; i < 12; i++) {
            users.add(Map.of("name", "u" + i, "accessKeys", List.of(Map.of("accessKeyId", String.format("AKIAUSER%012d", i), "secretAccessKey", "u"))));
        }
        List<Object> roles = withWorker ? List.of(Map.of("name", "worker", "trustPolicy", Map.of("Version", "2012-10-17", "Statement",
                List.of(Map.of("Effect", "Allow", "Principal", Map.of("AWS", "arn:aws:iam::111111111111:root"), "Action", "sts:AssumeRole"))),
                "policies", Map.of("work", Map.of("Version", "2012-10-17", "Statement", List.of(Map.of("Effect", "Allow",
                        "Action", List.of("sqs:*", "sts:AssumeRole"), "Resource", "*")))))) : List.of();
        return new IdentitiesConfig(k -> null).parse(List.of(
                Map.of("id", "111111111111", "users", users, "roles", roles),
                Map.of("id", "222222222222", "users", List.of(Map.of("name", "eve",
                        "accessKeys", List.of(Map.of("accessKeyId", "AKIAEVE0000000000001", "secretAccessKey", "e")))))), "test");
    }

    private Principal bob() {
        return identities.get().key(BOB_KEY).orElseThrow().principal();
    }

    @Test
    void getSessionTokenCredentialsCannotCallGetSessionTokenButMayAssumeARoleAndAskWhoTheyAre() {
        String keyId = member(sts.handle("GetSessionToken", Map.of(), bob(), Map.of(), BOB_KEY), "AccessKeyId");
        Principal asSession = sessions.find(keyId, identities.get()).orElseThrow().principal();
        assertThatThrownBy(() -> sts.handle("GetSessionToken", Map.of(), asSession, Map.of(), keyId))
                .isInstanceOf(StsException.class).hasMessage("Cannot call GetSessionToken with session credentials")
                .extracting("code", "status").containsExactly("AccessDenied", 403);
        // as AWS documents for GetSessionToken credentials: AssumeRole and GetCallerIdentity are allowed
        assertThat(sts.handle("GetCallerIdentity", Map.of(), asSession, Map.of(), keyId)).contains("user/bob");
        assertThat(sts.handle("AssumeRole", Map.of("RoleArn", WORKER, "RoleSessionName", "s1"), asSession, Map.of(), keyId))
                .contains("<AccessKeyId>ASIA");
    }

    @Test
    void aReloadThatRemovesTheUserTheKeyOrTheRoleEndsTheirSessionsAtOnce() {
        String fromBob = member(sts.handle("GetSessionToken", Map.of(), bob(), Map.of(), BOB_KEY), "AccessKeyId");
        String role = member(sts.handle("AssumeRole", Map.of("RoleArn", WORKER, "RoleSessionName", "s1"), bob(), Map.of(), BOB_KEY), "AccessKeyId");
        Principal roleSession = sessions.find(role, identities.get()).orElseThrow().principal();
        String chained = member(sts.handle("AssumeRole", Map.of("RoleArn", WORKER, "RoleSessionName", "s2"), roleSession, Map.of(), role), "AccessKeyId");
        String fromU0 = member(sts.handle("GetSessionToken", Map.of(), identities.get().key("AKIAUSER000000000000").orElseThrow().principal(),
                Map.of(), "AKIAUSER000000000000"), "AccessKeyId");
        assertThat(sessions.find(chained, identities.get())).isPresent();

        identities.set(identities(false, true)); // bob (and his key) removed
        assertThat(sessions.find(fromBob, identities.get())).isEmpty();
        assertThat(sessions.find(role, identities.get())).isEmpty();
        assertThat(sessions.find(chained, identities.get())).isEmpty(); // its parent session's parent is gone
        assertThat(sessions.find(fromU0, identities.get())).isPresent();

        identities.set(identities(true, false)); // bob back, the role removed
        assertThat(sessions.find(fromBob, identities.get())).isPresent();
        assertThat(sessions.find(role, identities.get())).isEmpty();
        identities.set(identities(true, true));
        assertThat(sessions.find(role, identities.get())).isPresent();
    }

    @Test
    void quotasPerPrincipalAndPerAccountAndExpiredSessionsStopCountingAtOnce() {
        Principal u0 = identities.get().key("AKIAUSER000000000000").orElseThrow().principal();
        for (int i = 0; i < Sessions.MAX_PER_PRINCIPAL; i++) {
            sts.handle("GetSessionToken", Map.of("DurationSeconds", "900"), u0, Map.of(), "AKIAUSER000000000000");
        }
        assertThatThrownBy(() -> sts.handle("GetSessionToken", Map.of(), u0, Map.of(), "AKIAUSER000000000000"))
                .extracting("code").isEqualTo("LimitExceeded");
        // another user of the same account is not blocked; nor is another account once this one is full
        for (int u = 1; u < Sessions.MAX_PER_ACCOUNT / Sessions.MAX_PER_PRINCIPAL; u++) {
            String key = String.format("AKIAUSER%012d", u);
            Principal user = identities.get().key(key).orElseThrow().principal();
            for (int i = 0; i < Sessions.MAX_PER_PRINCIPAL; i++) {
                sts.handle("GetSessionToken", Map.of("DurationSeconds", "900"), user, Map.of(), key);
            }
        }
        Principal u11 = identities.get().key("AKIAUSER000000000011").orElseThrow().principal();
        assertThatThrownBy(() -> sts.handle("GetSessionToken", Map.of(), u11, Map.of(), "AKIAUSER000000000011"))
                .isInstanceOf(StsException.class).hasMessageContaining("account 111111111111");
        Principal eve = identities.get().key("AKIAEVE0000000000001").orElseThrow().principal();
        assertThat(sts.handle("GetSessionToken", Map.of(), eve, Map.of(), "AKIAEVE0000000000001")).contains("<AccessKeyId>ASIA");

        // 900 s later every one of them has expired: none counts any more, though they still answer ExpiredToken
        now.set(now.get().plus(Duration.ofSeconds(900)));
        assertThat(sessions.liveForAccount("111111111111")).isZero();
        assertThat(sts.handle("GetSessionToken", Map.of(), u0, Map.of(), "AKIAUSER000000000000")).contains("<AccessKeyId>ASIA");
        assertThat(sessions.size()).isEqualTo(2); // eve's (one hour) and u0's new one
    }

    @Test
    void withAuthNoneOnlyTheTotalBoundsSessions() {
        StsService open = new StsService(identities::get, sessions, new NewKeys(), clock, false);
        Principal root = Principal.accountRoot("000000000000"); // what every unknown key stands for with auth none
        for (int i = 0; i <= Sessions.MAX_PER_PRINCIPAL; i++) {
            open.handle("AssumeRole", Map.of("RoleArn", "arn:aws:iam::000000000000:role/any", "RoleSessionName", "s" + i), root, Map.of(), null);
        }
        assertThat(sessions.size()).isEqualTo(Sessions.MAX_PER_PRINCIPAL + 1);
    }

    @Test
    void aMalformedSessionPolicyIsRefusedWithAwsCodeAndText() {
        Map<String, String> base = Map.of("RoleArn", WORKER, "RoleSessionName", "s1");
        for (String policy : List.of("{\"Statement\": \"everything\"}", "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Maybe\","
                + " \"Action\": \"sqs:*\", \"Resource\": \"*\"}]}", "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"sqs:*\"}]}")) {
            Map<String, String> params = new java.util.HashMap<>(base);
            params.put("Policy", policy);
            assertThatThrownBy(() -> sts.handle("AssumeRole", params, bob(), Map.of(), BOB_KEY)).as(policy)
                    .isInstanceOf(StsException.class).hasMessage("Syntax errors in policy.")
                    .extracting("code", "status").containsExactly("MalformedPolicyDocument", 400);
        }
        for (String notJson : List.of("{not json", "[1, 2]")) {
            Map<String, String> params = new java.util.HashMap<>(base);
            params.put("Policy", notJson);
            assertThatThrownBy(() -> sts.handle("AssumeRole", params, bob(), Map.of(), BOB_KEY))
                    .hasMessage("The policy is not in the valid JSON format.").extracting("code").isEqualTo("MalformedPolicyDocument");
        }
        assertThat(sessions.size()).isZero();
    }

    private static String member(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
        assertThat(m.find()).as(name + " in " + xml).isTrue();
        return m.group(1);
    }
}
