package io.hikyaku.policy;

import static io.hikyaku.policy.Contexts.OTHER;
import static io.hikyaku.policy.Contexts.OWNER;
import static io.hikyaku.policy.Contexts.QUEUE_ARN;
import static io.hikyaku.policy.Policies.allowIdentity;
import static io.hikyaku.policy.Policies.allowQueue;
import static io.hikyaku.policy.Policies.denyIdentity;
import static io.hikyaku.policy.Policies.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.policy.Decision.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The evaluation rules: deny wins, same account OR, cross account AND, root, owner-only, anonymous, sessions. */
class PolicyEvaluatorTest {

    private static Decision eval(Contexts c, List<Policy> identity, Policy queue) {
        return PolicyEvaluator.evaluate(c.build(), identity, queue, null);
    }

    @Test
    void nothingAllowsMeansImplicitDeny() {
        Decision d = eval(Contexts.user(OWNER, "alice"), List.of(), null);
        assertThat(d.allowed()).isFalse();
        assertThat(d.reason()).isEqualTo(Reason.NO_IDENTITY_POLICY_ALLOWS);
        assertThat(d.denialMessage(Contexts.user(OWNER, "alice").build())).isEqualTo(
                "User: arn:aws:iam::111111111111:user/alice is not authorized to perform: sqs:sendmessage on resource: "
                        + QUEUE_ARN + " because no identity-based policy allows the sqs:sendmessage action");
    }

    @Test
    void sameAccountIdentityPolicyAlone() {
        Decision d = eval(Contexts.user(OWNER, "alice"), List.of(allowIdentity("sqs:SendMessage", QUEUE_ARN)), null);
        assertThat(d).isEqualTo(new Decision(true, Reason.ALLOWED_BY_IDENTITY_POLICY));
    }

    @Test
    void sameAccountQueuePolicyAlone() {
        Decision d = eval(Contexts.user(OWNER, "alice"), List.of(),
                allowQueue("{'AWS':'arn:aws:iam::111111111111:user/alice'}", "sqs:SendMessage"));
        assertThat(d).isEqualTo(new Decision(true, Reason.ALLOWED_BY_RESOURCE_POLICY));
    }

    @Test
    void sameAccountGrantToTheAccountOnlyDelegates() {
        Policy toAccount = allowQueue("{'AWS':'111111111111'}", "sqs:SendMessage");
        Contexts alice = Contexts.user(OWNER, "alice");
        assertThat(eval(alice, List.of(), toAccount).reason()).isEqualTo(Reason.NO_IDENTITY_POLICY_ALLOWS);
        assertThat(eval(alice, List.of(allowIdentity("sqs:SendMessage", "*")), toAccount).allowed()).isTrue();
        // "*" and a grant naming the user or the role are enough on their own
        assertThat(eval(alice, List.of(), allowQueue("'*'", "sqs:SendMessage")).allowed()).isTrue();
        assertThat(eval(Contexts.session(OWNER, "worker", "s1"), List.of(),
                allowQueue("{'AWS':'arn:aws:iam::111111111111:role/worker'}", "sqs:SendMessage")).allowed()).isTrue();
    }

    @Test
    void crossAccountNeedsBothSides() {
        Policy identity = allowIdentity("sqs:*", "arn:aws:sqs:*:111111111111:*");
        Policy queue = allowQueue("{'AWS':'222222222222'}", "sqs:SendMessage");
        Contexts bob = Contexts.user(OTHER, "bob");
        assertThat(eval(bob, List.of(identity), null).reason()).isEqualTo(Reason.NO_RESOURCE_POLICY_ALLOWS);
        assertThat(eval(bob, List.of(), queue).reason()).isEqualTo(Reason.NO_IDENTITY_POLICY_ALLOWS);
        assertThat(eval(bob, List.of(identity), queue).allowed()).isTrue();
        assertThat(eval(bob, List.of(identity), null).denialMessage(bob.build()))
                .endsWith("because no resource-based policy allows the sqs:sendmessage action");
    }

    @Test
    void anotherAccountsRootNeedsOnlyTheQueuePolicy() {
        Policy queue = allowQueue("{'AWS':'arn:aws:iam::222222222222:root'}", "SQS:ReceiveMessage");
        Contexts root = Contexts.root(OTHER).action("sqs:receivemessage");
        assertThat(eval(root, List.of(), queue).allowed()).isTrue();
        assertThat(eval(Contexts.root(OTHER).action("sqs:SendMessage"), List.of(), queue).allowed()).isFalse();
    }

    @Test
    void accountPrincipalCoversEveryPrincipalOfTheAccount() {
        Policy queue = allowQueue("{'AWS':'arn:aws:iam::222222222222:root'}", "sqs:SendMessage");
        Policy identity = allowIdentity("sqs:SendMessage", "*");
        assertThat(eval(Contexts.user(OTHER, "bob"), List.of(identity), queue).allowed()).isTrue();
        assertThat(eval(Contexts.session(OTHER, "worker", "s1"), List.of(identity), queue).allowed()).isTrue();
        assertThat(eval(Contexts.user("333333333333", "eve"), List.of(identity), queue).allowed()).isFalse();
    }

    @Test
    void principalsAreMatchedExactly() {
        Policy identity = allowIdentity("sqs:SendMessage", "*");
        Policy toBob = allowQueue("{'AWS':'arn:aws:iam::222222222222:user/bob'}", "sqs:SendMessage");
        assertThat(eval(Contexts.user(OTHER, "bob"), List.of(identity), toBob).allowed()).isTrue();
        assertThat(eval(Contexts.user(OTHER, "Bob"), List.of(identity), toBob).allowed()).isFalse();
        Policy toRole = allowQueue("{'AWS':'arn:aws:iam::222222222222:role/worker'}", "sqs:SendMessage");
        assertThat(eval(Contexts.session(OTHER, "worker", "any"), List.of(identity), toRole).allowed()).isTrue();
        assertThat(eval(Contexts.session(OTHER, "other", "any"), List.of(identity), toRole).allowed()).isFalse();
        Policy toSession = allowQueue("{'AWS':'arn:aws:sts::222222222222:assumed-role/worker/s1'}", "sqs:SendMessage");
        assertThat(eval(Contexts.session(OTHER, "worker", "s1"), List.of(identity), toSession).allowed()).isTrue();
        assertThat(eval(Contexts.session(OTHER, "worker", "s2"), List.of(identity), toSession).allowed()).isFalse();
    }

    @Test
    void explicitDenyBeatsAllowWherever() {
        Contexts alice = Contexts.user(OWNER, "alice");
        Policy allow = allowIdentity("sqs:*", "*");
        Decision d = eval(alice, List.of(allow, denyIdentity("sqs:Send*", QUEUE_ARN)), null);
        assertThat(d).isEqualTo(new Decision(false, Reason.EXPLICIT_DENY_IN_IDENTITY_POLICY));
        assertThat(d.denialMessage(alice.build())).endsWith("with an explicit deny in an identity-based policy");
        Policy queueDeny = Policies.resource("{'Statement':[{'Effect':'Allow','Principal':'*','Action':'sqs:*','Resource':'*'},"
                + "{'Effect':'Deny','Principal':{'AWS':'111111111111'},'Action':'sqs:SendMessage','Resource':'*'}]}");
        assertThat(eval(alice, List.of(allow), queueDeny).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
        assertThat(eval(Contexts.root(OWNER), List.of(), queueDeny).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
        assertThat(eval(alice.action("sqs:ReceiveMessage"), List.of(allow), queueDeny).allowed()).isTrue();
    }

    @Test
    void theRootOfTheQueuesAccountMayDoAnything() {
        Decision d = eval(Contexts.root(OWNER).action("sqs:DeleteQueue"), List.of(), null);
        assertThat(d).isEqualTo(new Decision(true, Reason.ALLOWED_AS_ACCOUNT_ROOT));
    }

    @Test
    void ownerOnlyActionsCannotBeGrantedToAnotherAccount() {
        Policy queue = allowQueue("'*'", "sqs:*");
        Policy identity = allowIdentity("sqs:*", "*");
        for (String action : List.of("sqs:AddPermission", "sqs:RemovePermission", "sqs:SetQueueAttributes", "sqs:DeleteQueue",
                "sqs:TagQueue", "sqs:UntagQueue", "sqs:ListQueueTags", "sqs:CreateQueue", "sqs:ListQueues")) {
            assertThat(eval(Contexts.user(OTHER, "bob").action(action), List.of(identity), queue).reason())
                    .as(action).isEqualTo(Reason.OWNER_ONLY_ACTION);
            assertThat(eval(Contexts.root(OTHER).action(action), List.of(), queue).allowed()).as(action).isFalse();
            assertThat(eval(Contexts.anonymous().action(action), List.of(), queue).allowed()).as(action).isFalse();
            assertThat(eval(Contexts.user(OWNER, "alice").action(action), List.of(), queue).allowed()).as(action).isTrue();
        }
        for (String action : List.of("sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility",
                "sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:PurgeQueue", "sqs:ListDeadLetterSourceQueues")) {
            assertThat(eval(Contexts.user(OTHER, "bob").action(action), List.of(identity), queue).allowed()).as(action).isTrue();
        }
    }

    @Test
    void anonymousCallersOnlyThroughStar() {
        Contexts anon = Contexts.anonymous();
        assertThat(eval(anon, List.of(), allowQueue("'*'", "sqs:SendMessage")).allowed()).isTrue();
        assertThat(eval(anon, List.of(), allowQueue("{'AWS':'*'}", "sqs:SendMessage")).allowed()).isTrue();
        assertThat(eval(anon, List.of(), allowQueue("{'AWS':'111111111111'}", "sqs:SendMessage")).allowed()).isFalse();
        assertThat(eval(anon, List.of(allowIdentity("*", "*")), null).reason()).isEqualTo(Reason.NO_RESOURCE_POLICY_ALLOWS);
        assertThat(eval(anon, List.of(), null).denialMessage(anon.build())).startsWith("User: anonymous is not authorized");
    }

    @Test
    void servicePrincipals() {
        Policy queue = Policies.resource("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Principal':{'Service':'sns.amazonaws.com'},"
                + "'Action':'sqs:SendMessage','Resource':'" + QUEUE_ARN + "','Condition':{'ArnEquals':{'aws:SourceArn':"
                + "'arn:aws:sns:us-east-1:111111111111:orders-topic'}}}}");
        Contexts sns = Contexts.service("sns.amazonaws.com").key("aws:SourceArn", "arn:aws:sns:us-east-1:111111111111:orders-topic");
        assertThat(eval(sns, List.of(), queue).allowed()).isTrue();
        Contexts otherTopic = Contexts.service("sns.amazonaws.com").key("aws:SourceArn", "arn:aws:sns:us-east-1:222222222222:t");
        assertThat(eval(otherTopic, List.of(), queue).allowed()).isFalse();
        // a direct user call carries no aws:SourceArn: the statement does not apply
        assertThat(eval(Contexts.user(OTHER, "bob"), List.of(allowIdentity("*", "*")), queue).allowed()).isFalse();
    }

    @Test
    void notPrincipalNotActionNotResource() {
        Policy identity = allowIdentity("sqs:*", "*");
        Policy lockdown = Policies.resource("{'Statement':[{'Effect':'Deny','NotPrincipal':{'AWS':['arn:aws:iam::111111111111:user/admin','111111111111']},"
                + "'NotAction':['sqs:Get*','sqs:Receive*'],'NotResource':'arn:aws:sqs:*:*:public-*'}]}");
        assertThat(eval(Contexts.user(OWNER, "alice"), List.of(identity), lockdown).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
        assertThat(eval(Contexts.user(OWNER, "admin"), List.of(identity), lockdown).allowed()).isTrue();
        assertThat(eval(Contexts.user(OWNER, "alice").action("sqs:GetQueueAttributes"), List.of(identity), lockdown).allowed()).isTrue();
        assertThat(eval(Contexts.user(OWNER, "alice").resource("arn:aws:sqs:us-east-1:111111111111:public-x", OWNER),
                List.of(identity), lockdown).allowed()).isTrue();
    }

    @Test
    void notPrincipalLeavesOutOnlyCallersWhoseEveryFacetIsNamed() {
        Policy identity = allowIdentity("sqs:*", "*");
        Policy userOnly = Policies.resource("{'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':"
                + "'arn:aws:iam::111111111111:user/admin'},'Action':'sqs:*','Resource':'*'}}");
        Policy userAndAccount = Policies.resource("{'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':"
                + "['arn:aws:iam::111111111111:user/admin','111111111111']},'Action':'sqs:*','Resource':'*'}}");
        Policy roleAndAccount = Policies.resource("{'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':"
                + "['arn:aws:iam::111111111111:role/worker','arn:aws:iam::111111111111:root']},'Action':'sqs:*','Resource':'*'}}");
        Policy roleSessionAndAccount = Policies.resource("{'Statement':{'Effect':'Deny','NotPrincipal':{'AWS':"
                + "['arn:aws:iam::111111111111:role/worker','arn:aws:sts::111111111111:assumed-role/worker/s1','111111111111']},"
                + "'Action':'sqs:*','Resource':'*'}}");
        Contexts admin = Contexts.user(OWNER, "admin");
        assertThat(eval(admin, List.of(identity), userOnly).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
        assertThat(eval(admin, List.of(identity), userAndAccount).allowed()).isTrue();
        assertThat(eval(Contexts.user(OWNER, "alice"), List.of(identity), userAndAccount).allowed()).isFalse();
        assertThat(eval(Contexts.root(OWNER), List.of(), userAndAccount).allowed()).isTrue();
        assertThat(eval(Contexts.session(OWNER, "worker", "s1"), List.of(identity), roleAndAccount).allowed()).isFalse();
        assertThat(eval(Contexts.session(OWNER, "worker", "s1"), List.of(identity), roleSessionAndAccount).allowed()).isTrue();
        assertThat(eval(Contexts.session(OWNER, "worker", "s2"), List.of(identity), roleSessionAndAccount).allowed()).isFalse();
        assertThat(eval(Contexts.anonymous(), List.of(), userAndAccount).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
    }

    @Test
    void actionsMatchCaseInsensitivelyWithWildcards() {
        Contexts alice = Contexts.user(OWNER, "alice");
        assertThat(eval(alice, List.of(allowIdentity("SQS:sendmessage", "*")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sqs:Send*", "*")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sqs:?endMessage", "*")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sqs:Receive*", "*")), null).allowed()).isFalse();
        assertThat(eval(alice, List.of(allowIdentity("*", "*")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sns:*", "*")), null).allowed()).isFalse();
    }

    @Test
    void resourcesMatchWithWildcardsCaseSensitively() {
        Contexts alice = Contexts.user(OWNER, "alice");
        assertThat(eval(alice, List.of(allowIdentity("sqs:*", "arn:aws:sqs:*:111111111111:ord*")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sqs:*", "arn:aws:sqs:us-east-1:111111111111:order?")), null).allowed()).isTrue();
        assertThat(eval(alice, List.of(allowIdentity("sqs:*", "arn:aws:sqs:*:111111111111:Orders")), null).allowed()).isFalse();
        assertThat(eval(alice, List.of(allowIdentity("sqs:*", "arn:aws:sqs:*:222222222222:*")), null).allowed()).isFalse();
        assertThat(eval(alice, List.of(allowIdentity("sqs:*", "arn:aws:sqs:*:*:*")), null).allowed()).isTrue();
        Policy legacy = Policies.resource("{'Statement':{'Effect':'Allow','Principal':'*','Action':'sqs:SendMessage','Resource':'111111111111/orders'}}");
        assertThat(eval(Contexts.anonymous(), List.of(), legacy).allowed()).isTrue();
        assertThat(eval(Contexts.anonymous().resource("arn:aws:sqs:us-east-1:111111111111:other", OWNER), List.of(), legacy).allowed()).isFalse();
    }

    @Test
    void listQueuesNeedsAStarResource() {
        Contexts list = Contexts.user(OWNER, "alice").action("sqs:ListQueues").resource("*", OWNER);
        assertThat(eval(list, List.of(allowIdentity("sqs:ListQueues", "*")), null).allowed()).isTrue();
        assertThat(eval(list, List.of(allowIdentity("sqs:ListQueues", "arn:aws:sqs:*:111111111111:*")), null).allowed()).isFalse();
    }

    @Test
    void sessionPoliciesIntersect() {
        Contexts s = Contexts.session(OWNER, "worker", "s1");
        Policy role = allowIdentity("sqs:*", "*");
        Policy onlySend = allowIdentity("sqs:SendMessage", "*");
        assertThat(PolicyEvaluator.evaluate(s.build(), List.of(role), null, onlySend).allowed()).isTrue();
        Decision receive = PolicyEvaluator.evaluate(s.action("sqs:ReceiveMessage").build(), List.of(role), null, onlySend);
        assertThat(receive).isEqualTo(new Decision(false, Reason.NO_SESSION_POLICY_ALLOWS));
        // the session policy grants nothing by itself
        assertThat(PolicyEvaluator.evaluate(Contexts.session(OWNER, "worker", "s1").build(), List.of(), null, onlySend).allowed()).isFalse();
        // a deny in the session policy is explicit
        assertThat(PolicyEvaluator.evaluate(Contexts.session(OWNER, "worker", "s1").build(), List.of(role), null,
                denyIdentity("sqs:SendMessage", "*")).reason()).isEqualTo(Reason.EXPLICIT_DENY_IN_SESSION_POLICY);
        // a queue policy naming the role is limited by the session policy; one naming the session itself is not
        Policy toRole = allowQueue("{'AWS':'arn:aws:iam::111111111111:role/worker'}", "sqs:ReceiveMessage");
        Policy toSession = allowQueue("{'AWS':'arn:aws:sts::111111111111:assumed-role/worker/s1'}", "sqs:ReceiveMessage");
        RequestContext rc = Contexts.session(OWNER, "worker", "s1").action("sqs:ReceiveMessage").build();
        assertThat(PolicyEvaluator.evaluate(rc, List.of(), toRole, onlySend).allowed()).isFalse();
        assertThat(PolicyEvaluator.evaluate(rc, List.of(), toRole, null).allowed()).isTrue();
        assertThat(PolicyEvaluator.evaluate(rc, List.of(), toSession, onlySend).allowed()).isTrue();
    }

    @Test
    void trustPolicyForAssumeRole() throws Exception {
        Policy trust = Policy.parse(Policies.json("{'Version':'2012-10-17','Statement':[{'Effect':'Allow',"
                + "'Principal':{'AWS':'arn:aws:iam::222222222222:root'},'Action':'sts:AssumeRole'}]}"), PolicyKind.TRUST);
        String roleArn = "arn:aws:iam::111111111111:role/worker";
        RequestContext bob = Contexts.user(OTHER, "bob").action("sts:AssumeRole").resource(roleArn, OWNER).build();
        assertThat(PolicyEvaluator.evaluate(bob, List.of(allowIdentity("sts:AssumeRole", roleArn)), trust, null).allowed()).isTrue();
        assertThat(PolicyEvaluator.evaluate(bob, List.of(), trust, null).allowed()).isFalse();
        RequestContext eve = Contexts.user("333333333333", "eve").action("sts:AssumeRole").resource(roleArn, OWNER).build();
        assertThat(PolicyEvaluator.evaluate(eve, List.of(allowIdentity("sts:AssumeRole", "*")), trust, null).allowed()).isFalse();
    }

    @Test
    void aTrustPolicyMustAllowEvenInTheRolesAccount() throws Exception {
        String roleArn = "arn:aws:iam::111111111111:role/worker";
        Policy trustsAlice = Policy.parse(Policies.json("{'Statement':{'Effect':'Allow',"
                + "'Principal':{'AWS':'arn:aws:iam::111111111111:user/alice'},'Action':'sts:AssumeRole'}}"), PolicyKind.TRUST);
        Policy trustsAccount = Policy.parse(Policies.json("{'Statement':{'Effect':'Allow',"
                + "'Principal':{'AWS':'111111111111'},'Action':'sts:AssumeRole'}}"), PolicyKind.TRUST);
        RequestContext alice = Contexts.user(OWNER, "alice").action("sts:AssumeRole").resource(roleArn, OWNER).build();
        RequestContext bob = Contexts.user(OWNER, "bob").action("sts:AssumeRole").resource(roleArn, OWNER).build();
        Policy mayAssume = allowIdentity("sts:AssumeRole", roleArn);
        assertThat(PolicyEvaluator.evaluate(alice, List.of(), trustsAlice, null).allowed()).isTrue();
        assertThat(PolicyEvaluator.evaluate(bob, List.of(mayAssume), trustsAlice, null).reason())
                .isEqualTo(Reason.NO_RESOURCE_POLICY_ALLOWS);
        assertThat(PolicyEvaluator.evaluate(bob, List.of(), trustsAccount, null).reason()).isEqualTo(Reason.NO_IDENTITY_POLICY_ALLOWS);
        assertThat(PolicyEvaluator.evaluate(bob, List.of(mayAssume), trustsAccount, null).allowed()).isTrue();
        RequestContext root = Contexts.root(OWNER).action("sts:AssumeRole").resource(roleArn, OWNER).build();
        assertThat(PolicyEvaluator.evaluate(root, List.of(), trustsAlice, null).allowed()).isFalse();
    }

    @Test
    void theAddPermissionPolicyGrantsWhatItSays() throws Exception {
        String generated = "{\"Version\":\"2008-10-17\",\"Id\":\"" + QUEUE_ARN + "/SQSDefaultPolicy\",\"Statement\":[{\"Sid\":\"readers\","
                + "\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::222222222222:root\"},\"Action\":[\"SQS:ReceiveMessage\","
                + "\"SQS:DeleteMessage\"],\"Resource\":\"" + QUEUE_ARN + "\"}]}";
        Policy queue = Policy.parse(generated, PolicyKind.RESOURCE);
        Policy identity = allowIdentity("sqs:*", "*");
        // DeleteMessageBatch is authorized as sqs:DeleteMessage
        Contexts batch = Contexts.user(OTHER, "bob").action(SqsActions.iamAction("DeleteMessageBatch"));
        assertThat(eval(batch, List.of(identity), queue).allowed()).isTrue();
        assertThat(eval(Contexts.user(OTHER, "bob").action("sqs:SendMessage"), List.of(identity), queue).allowed()).isFalse();
        assertThat(eval(Contexts.user("333333333333", "eve").action("sqs:ReceiveMessage"), List.of(identity), queue).allowed()).isFalse();
    }

    /** Statement parts SQS accepts but that name no ARN never match: they neither allow nor deny. */
    @Test
    void partsThatNameNoArnMatchNothing() {
        Contexts anon = Contexts.anonymous();
        assertThat(eval(anon, List.of(), resource("{'Statement':{'Effect':'Allow','Principal':'*','Action':'*'}}")).allowed()).isFalse();
        assertThat(eval(anon, List.of(), resource("{'Statement':{'Effect':'Allow','Principal':'*','Action':'*','Resource':'orders'}}"))
                .allowed()).isFalse();
        assertThat(eval(anon, List.of(), resource("{'Statement':{'Effect':'Allow','Principal':'*','Action':'*','NotResource':'orders'}}"))
                .allowed()).isTrue();
        String arnCondition = "{'Statement':[{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*',"
                + "'Condition':{'%s':{'aws:SourceArn':'topic_arn'}}}]}";
        Contexts sns = Contexts.service("sns.amazonaws.com").key("aws:SourceArn", "arn:aws:sns:us-east-1:111111111111:t");
        assertThat(eval(sns, List.of(), resource(arnCondition.formatted("ArnEquals"))).allowed()).isFalse();
        assertThat(eval(sns, List.of(), resource(arnCondition.formatted("ArnNotLike"))).allowed()).isTrue();
        Policy denyWithoutResource = resource("{'Statement':[{'Effect':'Allow','Principal':'*','Action':'*','Resource':'*'},"
                + "{'Effect':'Deny','Principal':'*','Action':'*'}]}");
        assertThat(eval(anon, List.of(), denyWithoutResource).allowed()).isTrue();
    }
}
