package io.hikyaku.policy;

import static io.hikyaku.policy.Contexts.OWNER;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Policy variables in Resource and in String / Arn conditions, their escapes, defaults, and 2008-10-17 literals. */
class PolicyVariablesTest {

    private static boolean allows(String version, String resource, String condition, Contexts caller) {
        Policy p = Policies.identity("{" + (version == null ? "" : "'Version':'" + version + "',")
                + "'Statement':{'Effect':'Allow','Action':'sqs:*','Resource':'" + resource + "'"
                + (condition == null ? "" : ",'Condition':" + condition) + "}}");
        return PolicyEvaluator.evaluate(caller.build(), List.of(p), null, null).allowed();
    }

    private static Contexts aliceOn(String queue) {
        return Contexts.user(OWNER, "alice").resource("arn:aws:sqs:us-east-1:111111111111:" + queue, OWNER);
    }

    @Test
    void usernameInResource() {
        String r = "arn:aws:sqs:*:111111111111:${aws:username}-*";
        assertThat(allows("2012-10-17", r, null, aliceOn("alice-inbox"))).isTrue();
        assertThat(allows("2012-10-17", r, null, aliceOn("bob-inbox"))).isFalse();
    }

    @Test
    void aVariableValueIsLiteralNotAWildcard() {
        Contexts star = Contexts.user(OWNER, "al").resource("arn:aws:sqs:us-east-1:111111111111:alice", OWNER)
                .key("s:prefix", "a*");
        assertThat(allows("2012-10-17", "arn:aws:sqs:*:111111111111:${s:prefix}", null, star)).isFalse();
        Contexts literal = Contexts.user(OWNER, "al").resource("arn:aws:sqs:us-east-1:111111111111:a*", OWNER).key("s:prefix", "a*");
        assertThat(allows("2012-10-17", "arn:aws:sqs:*:111111111111:${s:prefix}", null, literal)).isTrue();
    }

    @Test
    void escapesForLiteralWildcardCharacters() {
        String r = "arn:aws:sqs:*:111111111111:q${*}${?}${$}";
        assertThat(allows("2012-10-17", r, null, aliceOn("q*?$"))).isTrue();
        assertThat(allows("2012-10-17", r, null, aliceOn("qx?$"))).isFalse();
        assertThat(allows("2012-10-17", r, null, aliceOn("q*x$"))).isFalse();
    }

    @Test
    void aMissingVariableMatchesNothingUnlessItHasADefault() throws Exception {
        // aws:username exists only for IAM users, not for role sessions
        Contexts session = Contexts.session(OWNER, "worker", "s1").resource("arn:aws:sqs:us-east-1:111111111111:nobody-q", OWNER);
        assertThat(allows("2012-10-17", "arn:aws:sqs:*:*:${aws:username}-q", null, session)).isFalse();
        Policy withDefault = Policy.parse("{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"sqs:*\","
                + "\"Resource\":\"arn:aws:sqs:*:*:${aws:username, 'nobody'}-q\"}}", PolicyKind.IDENTITY);
        assertThat(PolicyEvaluator.evaluate(session.build(), List.of(withDefault), null, null).allowed()).isTrue();
        Contexts alice = Contexts.user(OWNER, "alice").resource("arn:aws:sqs:us-east-1:111111111111:nobody-q", OWNER);
        assertThat(PolicyEvaluator.evaluate(alice.build(), List.of(withDefault), null, null).allowed()).isFalse();
    }

    @Test
    void variablesInConditions() {
        Contexts alice = aliceOn("orders").key("aws:RequestTag/owner", "alice");
        String cond = "{'StringEquals':{'aws:RequestTag/owner':'${aws:username}'}}";
        assertThat(allows("2012-10-17", "*", cond, alice)).isTrue();
        assertThat(allows("2012-10-17", "*", cond, aliceOn("orders").key("aws:RequestTag/owner", "bob"))).isFalse();
        String arnCond = "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:${aws:PrincipalAccount}:*'}}";
        assertThat(allows("2012-10-17", "*", arnCond, aliceOn("orders").key("aws:SourceArn", "arn:aws:sns:r:111111111111:t"))).isTrue();
        assertThat(allows("2012-10-17", "*", arnCond, aliceOn("orders").key("aws:SourceArn", "arn:aws:sns:r:222222222222:t"))).isFalse();
        String like = "{'StringLike':{'s:path':'home/${aws:username}/*'}}";
        assertThat(allows("2012-10-17", "*", like, aliceOn("orders").key("s:path", "home/alice/x"))).isTrue();
    }

    @Test
    void versionTwentyOhEightTreatsVariablesAsText() {
        String r = "arn:aws:sqs:*:111111111111:${aws:username}";
        assertThat(allows("2008-10-17", r, null, aliceOn("alice"))).isFalse();
        assertThat(allows("2008-10-17", r, null, aliceOn("${aws:username}"))).isTrue();
        assertThat(allows(null, r, null, aliceOn("${aws:username}"))).isTrue();
    }
}
