package io.hikyaku.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.engine.QueueAccess;
import io.hikyaku.identity.Principal;
import io.hikyaku.policy.Decision;
import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.PrincipalType;
import io.hikyaku.policy.RequestContext;
import io.hikyaku.policy.SqsActions;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.api.ResolvedRequest;
import io.hikyaku.api.ResolvedRequest.Check;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The authorize step of an SQS request (auth sigv4): the operation is checked as its IAM action
 * ({@link SqsActions}) on the queue it names, by the IAM policy evaluator, with the caller's identity
 * policies (and session policy), the queue's {@code Policy} (from the immutable snapshots the engine
 * publishes, {@code ServiceView.queueAccess}, never the engine itself; parsed once through the shared
 * {@link PolicyCache}) and the request's condition keys. A denial is AWS's
 * AccessDenied (403) with its current text ({@code User: <arn> is not authorized to perform:
 * sqs:<action> on resource: <arn> because ...}); an anonymous caller gets the legacy text
 * ({@code Access to the resource https://sqs.<region>.amazonaws.com/<account>/<queue> is denied.}),
 * which names no principal.
 *
 * <p>Which queue and which actions: the request's {@link ResolvedRequest}, resolved once through the
 * operation table ({@link io.hikyaku.api.SqsOperations}) before this step and read unchanged by the
 * service. A request that names no queue where it needs one has no check: the service answers its
 * own validation error and acts on nothing.
 */
public final class RequestAuthorization {

    /** A queue's Policy and tags, read from the engine's published snapshots (null: no such queue). */
    @FunctionalInterface
    public interface QueueLookup {
        QueueAccess find(String accountId, String queueName);
    }

    private final String region;
    private final String defaultAccount;
    private final QueueLookup queues;
    private final PolicyCache policies;

    public RequestAuthorization(String region, String defaultAccount, QueueLookup queues, PolicyCache policies) {
        this.region = region;
        this.defaultAccount = defaultAccount;
        this.queues = queues;
        this.policies = policies;
    }

    /**
     * Policies whose outcome depends only on caller, action and resource (no Condition, no policy
     * variable) and whose patterns total at most this many characters ({@link Policy#fixedWeight}) are
     * evaluated where the request arrives: matching them is linear in pattern length against strings
     * the server builds (a few microseconds at most), as cheap as the thread hop that would avoid it.
     */
    static final int INLINE_WEIGHT = 4096;

    /** @throws ApiException AccessDenied when any check of the request is denied */
    public void authorize(io.hikyaku.identity.RequestContext caller, ResolvedRequest resolved) {
        Principal who = caller.principal();
        RequestKeys keys = new RequestKeys(caller, resolved.request());
        for (Check check : resolved.checks()) {
            QueueAccess queue = queueOf(check);
            if (rootWithoutPolicies(who, check, queue)) {
                continue;
            }
            authorizeOne(who, check, queue, keys);
        }
    }

    /**
     * Whether {@link #authorize} must run off the event loop ({@link AuthorizationPool}): true when a
     * check evaluates a policy that reads the request's condition keys (a Condition or a policy
     * variable: its cost depends on values the client chose) or policies heavier than
     * {@link #INLINE_WEIGHT}. False when every check is an account root acting in its own account with
     * no policy anywhere (nothing to evaluate) or evaluates only small condition-free policies (every
     * one of them is still evaluated, where the request arrives).
     */
    public boolean needsPool(io.hikyaku.identity.RequestContext caller, ResolvedRequest resolved) {
        Principal who = caller.principal();
        for (Check check : resolved.checks()) {
            QueueAccess queue = queueOf(check);
            if (!rootWithoutPolicies(who, check, queue) && !boundedWithoutKeys(who, queue)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every policy a check evaluates ignores the request's keys, and together they weigh at most {@link #INLINE_WEIGHT}. */
    private boolean boundedWithoutKeys(Principal who, QueueAccess queue) {
        long weight = 0;
        for (Policy p : identityPolicies(who)) {
            if (p.readsRequestKeys()) {
                return false;
            }
            weight += p.fixedWeight();
        }
        for (Policy p : new Policy[] {sessionPolicy(who), resourcePolicy(queue)}) {
            if (p != null) {
                if (p.readsRequestKeys()) {
                    return false;
                }
                weight += p.fixedWeight();
            }
        }
        return weight <= INLINE_WEIGHT;
    }

    /**
     * A request's condition keys, built on first use: policies without conditions or variables never
     * read them, and building them (maps, time text) is most of what such an evaluation would cost.
     */
    private static final class RequestKeys {
        private final io.hikyaku.identity.RequestContext caller;
        private final ApiRequest request;
        private Map<String, List<String>> keys;

        RequestKeys(io.hikyaku.identity.RequestContext caller, ApiRequest request) {
            this.caller = caller;
            this.request = request;
        }

        Map<String, List<String>> get() {
            if (keys == null) {
                keys = ConditionContext.globalKeys(caller);
                if (request != null) {
                    ConditionContext.addRequestTags(request, keys);
                }
            }
            return keys;
        }
    }

    /**
     * Authorizes a call of another API served on the same endpoint (CloudWatch, Lambda event source
     * mappings): the caller's identity policies only (these APIs have no resource policies; an account
     * root may do everything in its account; an anonymous caller nothing).
     *
     * @param resource the resource's ARN, or {@code "*"} for actions without one
     * @return null when allowed, else IAM's AccessDenied text ({@code User: <arn> is not authorized to
     *         perform: <action> [on resource: <arn>] because no identity-based policy allows the <action> action})
     */
    public String denial(io.hikyaku.identity.RequestContext caller, String iamAction, String resource) {
        Principal who = caller.principal();
        RequestContext c = context(who, iamAction, resource, who.accountId(), ConditionContext.globalKeys(caller));
        Decision d = PolicyEvaluator.evaluate(c, identityPolicies(who), null, sessionPolicy(who));
        if (d.allowed()) {
            return null;
        }
        String head = "User: " + (who.isAnonymous() ? "anonymous" : who.arn()) + " is not authorized to perform: " + iamAction
                + (resource.equals("*") ? "" : " on resource: " + resource);
        return switch (d.reason()) {
            case EXPLICIT_DENY_IN_IDENTITY_POLICY -> head + " with an explicit deny in an identity-based policy";
            case EXPLICIT_DENY_IN_SESSION_POLICY -> head + " with an explicit deny in a session policy";
            case NO_SESSION_POLICY_ALLOWS -> head + " because no session policy allows the " + iamAction + " action";
            default -> head + " because no identity-based policy allows the " + iamAction + " action";
        };
    }

    /**
     * A KMS call: the caller's identity policies and the key's policy (as the resource policy) evaluated
     * together by the shared evaluator, with the KMS condition keys. A Deny in either denies; another account's
     * key needs both its key policy and the caller's IAM to allow. A key policy that does not parse allows nothing.
     *
     * @param keyPolicy the key's policy, or null for calls on no key ({@code *}: IAM alone)
     */
    public String kmsDenial(io.hikyaku.identity.RequestContext caller, String iamAction, String resource, String keyAccount,
                            String keyPolicy, Map<String, List<String>> kmsKeys) {
        Principal who = caller.principal();
        if (keyPolicy == null) {
            return denial(caller, iamAction, resource);
        }
        Map<String, List<String>> keys = new java.util.HashMap<>(ConditionContext.globalKeys(caller));
        keys.putAll(kmsKeys);
        RequestContext c = context(who, iamAction, resource, keyAccount, keys);
        Policy key = parse(keyPolicy, PolicyKind.RESOURCE);
        if (key == null) {
            key = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"}]}",
                    PolicyKind.RESOURCE);
        }
        Decision d = PolicyEvaluator.evaluate(c, identityPolicies(who), key, sessionPolicy(who));
        if (d.allowed()) {
            return null;
        }
        String head = "User: " + (who.isAnonymous() ? "anonymous" : who.arn()) + " is not authorized to perform: " + iamAction
                + " on resource: " + resource;
        return switch (d.reason()) {
            case EXPLICIT_DENY_IN_IDENTITY_POLICY -> head + " with an explicit deny in an identity-based policy";
            case EXPLICIT_DENY_IN_RESOURCE_POLICY -> head + " with an explicit deny in a resource-based policy";
            case EXPLICIT_DENY_IN_SESSION_POLICY -> head + " with an explicit deny in a session policy";
            case NO_SESSION_POLICY_ALLOWS -> head + " because no session policy allows the " + iamAction + " action";
            default -> who.accountId() != null && !who.accountId().equals(keyAccount)
                    ? head + " because no resource-based policy allows the " + iamAction + " action"
                    : head + " because no identity-based policy allows the " + iamAction + " action";
        };
    }

    /**
     * Whether the caller may perform an SQS action on a queue it does not call directly (a Lambda
     * event source mapping's queue, which push delivery then reads for it).
     */
    public boolean mayOnQueue(io.hikyaku.identity.RequestContext caller, String iamAction, String account, String queueName) {
        try {
            Check check = new Check(iamAction, account, queueName);
            authorizeOne(caller.principal(), check, queueOf(check), new RequestKeys(caller, null));
            return true;
        } catch (ApiException denied) {
            return false;
        }
    }

    private QueueAccess queueOf(Check check) {
        boolean accountLevel = check.queueName() == null || check.account() == null;
        return accountLevel ? null : queues.find(check.account(), check.queueName());
    }

    private void authorizeOne(Principal who, Check check, QueueAccess queue, RequestKeys requestKeys) {
        boolean accountLevel = check.queueName() == null || check.account() == null;
        List<Policy> identity = identityPolicies(who);
        Policy resourcePolicy = resourcePolicy(queue);
        Policy session = sessionPolicy(who);
        Map<String, List<String>> keys = Map.of(); // read by no policy here unless one of them says so
        if (readsKeys(identity, resourcePolicy, session)) {
            keys = requestKeys.get();
            if (queue != null && !queue.tags().isEmpty()) {
                keys = new HashMap<>(keys);
                ConditionContext.addResourceTags(queue.tags(), keys);
            }
        }
        String resource = accountLevel ? "*" : SqsActions.queueArn(region, check.account(), check.queueName());
        RequestContext c = context(who, check.iamAction(), resource, check.account(), keys);
        Decision d = PolicyEvaluator.evaluate(c, identity, resourcePolicy, session);
        if (!d.allowed()) {
            String message = who.isAnonymous()
                    ? "Access to the resource https://sqs." + region + ".amazonaws.com/"
                            + (accountLevel ? "" : check.account() + "/" + check.queueName()) + " is denied."
                    : d.denialMessage(c);
            throw new ApiException("AccessDenied", message);
        }
    }

    private static boolean readsKeys(List<Policy> identity, Policy resourcePolicy, Policy session) {
        for (Policy p : identity) {
            if (p.readsRequestKeys()) {
                return true;
            }
        }
        return (resourcePolicy != null && resourcePolicy.readsRequestKeys()) || (session != null && session.readsRequestKeys());
    }

    /**
     * An account root acting in its own account, with no policy anywhere that could deny it (no queue
     * Policy, no session or identity policy): the evaluator's answer is ALLOWED_AS_ACCOUNT_ROOT whatever
     * the request's keys, so the context is not built (it is most of authorization's cost per request).
     */
    private static boolean rootWithoutPolicies(Principal who, Check check, QueueAccess queue) {
        return who.type() == io.hikyaku.identity.PrincipalType.ACCOUNT
                && who.accountId() != null && who.accountId().equals(check.account())
                && who.identityPolicies().isEmpty() && who.sessionPolicy() == null
                && (queue == null || queue.policy() == null);
    }

    private static RequestContext context(Principal who, String action, String resource, String resourceAccount,
                                          Map<String, List<String>> keys) {
        if (who.isAnonymous()) {
            return RequestContext.anonymous(action, resource, resourceAccount, keys);
        }
        PrincipalType type = switch (who.type()) {
            case ACCOUNT -> PrincipalType.ACCOUNT;
            case USER -> PrincipalType.USER;
            case ASSUMED_ROLE -> PrincipalType.ASSUMED_ROLE;
            case ANONYMOUS -> PrincipalType.ANONYMOUS;
        };
        return new RequestContext(who.arn(), who.accountId(), type, who.userId(), who.userName(), action, resource,
                resourceAccount, keys);
    }

    /** The caller's identity policies; one that does not parse allows nothing (the config loader refuses such files). */
    private List<Policy> identityPolicies(Principal who) {
        if (who.identityPolicies().isEmpty()) {
            return List.of();
        }
        List<Policy> out = new ArrayList<>(who.identityPolicies().size());
        for (String document : who.identityPolicies().values()) {
            Policy p = parse(document, PolicyKind.IDENTITY);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    private Policy sessionPolicy(Principal who) {
        return who.sessionPolicy() == null ? null : parseOrDenyAll(who.sessionPolicy());
    }

    /** A session policy that does not parse must not widen the session: it then allows nothing. */
    private Policy parseOrDenyAll(String document) {
        Policy p = parse(document, PolicyKind.SESSION);
        return p != null ? p : parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Action\":\"*\",\"Resource\":\"*\"}]}",
                PolicyKind.SESSION);
    }

    /** The queue's Policy (validated when it was set, so it parses; one stored by an older version that does not grants nothing). */
    private Policy resourcePolicy(QueueAccess queue) {
        return queue == null || queue.policy() == null ? null : parse(queue.policy(), PolicyKind.RESOURCE);
    }

    private Policy parse(String document, PolicyKind kind) {
        try {
            return policies.get(document, kind);
        } catch (PolicyException invalid) {
            return null;
        }
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
