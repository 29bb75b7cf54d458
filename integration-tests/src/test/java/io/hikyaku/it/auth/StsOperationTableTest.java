package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.identity.sts.StsOperations;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * STS through its operation table ({@link StsOperations}), on the real server with real SigV4: every
 * operation in the table is authorized as exactly its IAM action on exactly its resource (or, where
 * the table says no policy applies, cannot be denied), and an action that is not in the table, unknown
 * or an STS action this server does not serve, or a request in a shape the table does not accept, is
 * STS's InvalidAction (400, Query XML) whoever asks.
 */
class StsOperationTableTest extends AuthTestBase {

    static final String CAROL = "AKIACAROL00000000001";
    static final String DAVE = "AKIADAVE000000000001";
    static final String SECRET = "table/secret/0123456789abcdefghijklmnopq";
    static final String READER = "arn:aws:iam::" + A + ":role/reader";
    static final String WRITER = "arn:aws:iam::" + A + ":role/writer";

    @Override
    protected String config() {
        String trust = "{Version: \"2012-10-17\", Statement: [{Effect: Allow, Principal: {AWS: \"arn:aws:iam::111111111111:root\"}, Action: \"sts:AssumeRole\"}]}";
        return """
                accounts:
                  - id: "111111111111"
                    rootKeys:
                      - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                    users:
                      - name: carol
                        accessKeys:
                          - {accessKeyId: AKIACAROL00000000001, secretAccessKey: "table/secret/0123456789abcdefghijklmnopq"}
                        policies:
                          no-sts: {Version: "2012-10-17", Statement: [{Effect: Deny, Action: "sts:*", Resource: "*"}]}
                      - name: dave
                        accessKeys:
                          - {accessKeyId: AKIADAVE000000000001, secretAccessKey: "table/secret/0123456789abcdefghijklmnopq"}
                        policies:
                          reader-only: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sts:AssumeRole", Resource: "arn:aws:iam::111111111111:role/reader"}]}
                    roles:
                      - name: reader
                        trustPolicy: TRUST
                      - name: writer
                        trustPolicy: TRUST
                  - id: "222222222222"
                    rootKeys:
                      - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
                """.replace("TRUST", trust);
    }

    @Test
    void everyOperationInTheTableIsAuthorizedAsItsActionOnItsResource() {
        for (StsOperations.Operation op : StsOperations.all()) {
            switch (op.authorization()) {
                case NONE -> {
                    // carol denies herself sts:*, which AWS does not let deny these operations
                    SignedCall.Response r = call(op, Map.of(), CAROL);
                    assertThat(r.status()).as(op + ": " + r.text()).isEqualTo(200);
                    assertThat(r.text()).startsWith("<" + op.operationName() + "Response xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">");
                }
                case ROLE_TRUST -> {
                    // dave may perform it on the reader role only: the resource authorized is the one named
                    assertThat(op.resourceParameter()).isNotNull();
                    SignedCall.Response allowed = call(op, Map.of(op.resourceParameter(), READER), DAVE);
                    assertThat(allowed.status()).as(op + ": " + allowed.text()).isEqualTo(200);
                    SignedCall.Response other = call(op, Map.of(op.resourceParameter(), WRITER), DAVE);
                    assertThat(other.status()).as(op + ": " + other.text()).isEqualTo(403);
                    assertThat(other.text()).contains("<Code>AccessDenied</Code>").contains("<Message>User: arn:aws:iam::" + A
                            + ":user/dave is not authorized to perform: " + op.iamAction() + " on resource: " + WRITER + "</Message>");
                    SignedCall.Response denied = call(op, Map.of(op.resourceParameter(), READER), CAROL);
                    assertThat(denied.status()).as(op + ": " + denied.text()).isEqualTo(403);
                    assertThat(denied.text()).contains(op.iamAction() + " on resource: " + READER);
                }
            }
        }
    }

    @Test
    void theTableIsWhatIsServed() {
        assertThat(StsOperations.all()).extracting(StsOperations.Operation::iamAction)
                .containsExactly("sts:GetCallerIdentity", "sts:AssumeRole", "sts:GetSessionToken");
        for (StsOperations.Operation op : StsOperations.all()) {
            assertThat(op.protocols()).containsExactly(StsOperations.Protocol.QUERY);
        }
    }

    @Test
    void anActionNotInTheTableIsInvalidActionWhoeverAsks() {
        // unknown, and real STS actions this server does not serve
        for (String action : new String[] {"Frobnicate", "GetFederationToken", "AssumeRoleWithWebIdentity", "DecodeAuthorizationMessage",
                "GetAccessKeyInfo", "getcalleridentity"}) {
            for (String key : new String[] {ROOT_A, CAROL}) {
                SignedCall.Response r = SignedCall.form(endpoint, "Action=" + action + "&Version=2011-06-15", key,
                        key.equals(ROOT_A) ? ROOT_A_SECRET : SECRET, "sts", clock.instant());
                assertThat(r.status()).as(action + ": " + r.text()).isEqualTo(400);
                assertThat(r.header("content-type")).startsWith("text/xml");
                assertThat(r.text()).startsWith("<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type>"
                        + "<Code>InvalidAction</Code><Message>Could not find operation " + action + " for version 2011-06-15</Message></Error>");
            }
        }
    }

    @Test
    void theJsonShapeIsNotAccepted() {
        SignedCall.Response r = SignedCall.post(endpoint, "/", Map.of("Content-Type", "application/x-amz-json-1.0",
                        "X-Amz-Target", "AWSSecurityTokenServiceV20110615.GetCallerIdentity"), "{}".getBytes(StandardCharsets.UTF_8),
                ROOT_A, ROOT_A_SECRET, "sts", clock.instant());
        assertThat(r.status()).as(r.text()).isEqualTo(400);
        assertThat(r.text()).contains("<Code>InvalidAction</Code><Message>Could not find operation GetCallerIdentity for version 2011-06-15</Message>");
    }

    private SignedCall.Response call(StsOperations.Operation op, Map<String, String> resource, String keyId) {
        StringBuilder form = new StringBuilder("Action=" + op.operationName() + "&Version=2011-06-15");
        if (op == StsOperations.Operation.ASSUME_ROLE) {
            form.append("&RoleSessionName=table");
        }
        resource.forEach((k, v) -> form.append('&').append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return SignedCall.form(endpoint, form.toString(), keyId, SECRET, "sts", clock.instant());
    }
}
