package io.hikyaku.server.auth;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Authenticator;
import io.hikyaku.identity.CurrentIdentities;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.NewKeys;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.RequestContext;
import io.hikyaku.identity.sigv4.AuthException;
import io.hikyaku.identity.sigv4.SigV4Verifier;
import io.hikyaku.identity.sigv4.SignedRequest;
import io.hikyaku.identity.sts.Sessions;
import io.hikyaku.identity.sts.StsService;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.cloudwatch.CloudWatchCaller;
import io.hikyaku.push.LambdaApi;
import io.hikyaku.push.LambdaOperations;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.ProtocolCodec;
import io.hikyaku.server.SecurityConfig;
import java.time.Clock;

/**
 * The authenticate step of a request's path (decode -> authenticate -> authorize -> ...), at the
 * HTTP boundary: verifies the request (or, with auth none, reads its key id), answers STS requests
 * itself, and for SQS requests hands back the principal whose account the call acts in.
 */
public final class RequestAuthentication {

    private final CurrentIdentities identities;
    private final Authenticator authenticator;
    private final StsEndpoint sts;
    private final RequestAuthorization authorization;
    private final boolean enforce;
    private final Clock clock;
    private final String region;

    public RequestAuthentication(SecurityConfig security, String defaultAccount, String region, Clock clock) {
        this(security, defaultAccount, region, clock, (account, name) -> null);
    }

    /** @param queues a queue's Policy and tags from the engine's published snapshots, for authorization */
    public RequestAuthentication(SecurityConfig security, String defaultAccount, String region, Clock clock,
                                 RequestAuthorization.QueueLookup queues) {
        Sessions sessions = new Sessions(clock);
        this.enforce = security.auth() == AuthMode.SIGV4;
        this.identities = new CurrentIdentities(security.identities());
        this.authenticator = new Authenticator(security.auth(), identities, sessions, clock, defaultAccount);
        this.sts = new StsEndpoint(new StsService(identities, sessions, new NewKeys(), clock, enforce));
        this.authorization = new RequestAuthorization(region, defaultAccount, queues, PolicyCache.shared());
        this.clock = clock;
        this.region = region;
    }

    /**
     * Puts a new set of identities (accounts, keys, users, roles, policies) in force at once, for
     * every request that starts from now on. An STS session stops working at once when the key that asked
     * for it, or its role, is no longer configured; the others keep working until they expire.
     */
    public void replaceIdentities(Identities next) {
        identities.replace(next);
    }

    /** The identities in force. */
    public Identities identities() {
        return identities.get();
    }

    /**
     * Either the request context of an SQS call (who calls, from where, over what, when: what
     * authorization decides on), or a response to send as it is (STS, or an authentication failure).
     */
    public record Outcome(RequestContext context, HttpResponseData response, String signingService) {

        Outcome(RequestContext context, HttpResponseData response) {
            this(context, response, null);
        }
    }

    public Outcome authenticate(HttpRequestData raw, ProtocolCodec codec, String requestId) {
        SignedRequest signed = SignedRequests.of(raw);
        Principal principal;
        String keyId;
        String signedService;
        try {
            Authenticator.Authentication who = authenticator.authenticate(signed);
            principal = who.principal();
            keyId = who.accessKeyId();
            signedService = who.signedService();
        } catch (AuthException e) {
            HttpResponseData refusal = StsEndpoint.isSts(raw, SigV4Verifier.scopeService(signed))
                    ? StsEndpoint.error(e.error().code(), e.error().status(), e.getMessage(), requestId)
                    : codec.encodeError(raw, null, new ApiException(e.error().code(), e.getMessage()), requestId);
            return new Outcome(null, refusal);
        }
        // STS or not: the scope's service, the verified one when there is one (not read from the header a
        // second time); an unsigned request by its shape
        boolean forSts = StsEndpoint.isSts(raw, signedService != null ? signedService : SigV4Verifier.scopeService(signed));
        if (forSts) {
            return new Outcome(null, sts.handle(raw, principal, keyId, requestId, clock.instant()));
        }
        // The scope's service routes the request only where signatures are verified (ServiceRoute): the
        // verified scope's, not read from the header a second time.
        String scope = enforce && !principal.isAnonymous() ? signedService : null;
        return new Outcome(new RequestContext(principal, raw.sourceIp(), raw.secure(), clock.instant(), raw.header("user-agent")),
                null, scope);
    }

    /**
     * The authorize step: with auth sigv4 the request is authorized as AWS does (identity policies,
     * the queue's policy, cross-account rules, conditions: {@link RequestAuthorization}); with auth
     * none everything is allowed, as before.
     *
     * @throws ApiException AccessDenied
     */
    public void authorize(RequestContext context, io.hikyaku.api.ResolvedRequest request) {
        if (enforce) {
            authorization.authorize(context, request);
        }
    }

    /**
     * Whether authorizing this request may cost more than a few microseconds, so that it runs off the
     * event loop ({@link AuthorizationPool}): it evaluates a policy with a Condition or a policy
     * variable, or large policies ({@link RequestAuthorization#needsPool}). Every other request is
     * authorized, every policy evaluated, where it arrives, without a thread hop.
     */
    public boolean needsAuthorizationPool(RequestContext context, io.hikyaku.api.ResolvedRequest request) {
        return enforce && authorization.needsPool(context, request);
    }

    /**
     * The CloudWatch API's view of an authenticated caller (its account, and each operation authorized
     * as the IAM action on the resource its operation table names), or null with auth none (the configured account,
     * no checks, as before).
     */
    public CloudWatchCaller cloudWatchCaller(RequestContext context) {
        if (!enforce) {
            return null;
        }
        return new CloudWatchCaller(context.principal().accountId(), (action, resource) -> authorization.denial(context, action, resource));
    }

    /**
     * KMS calls: {@code kms:<Op>} on the key's ARN (or {@code *}), IAM and the key policy together
     * ({@link RequestAuthorization#kmsDenial}).
     *
     * @param target {iamAction, resource, keyAccount, keyPolicy} as {@code KmsApi.authorizationTarget} gives it
     * @return null when allowed (or auth none), else IAM's denial text
     */
    public String kmsDenial(RequestContext context, String[] target, java.util.Map<String, java.util.List<String>> kmsKeys) {
        if (!enforce) {
            return null;
        }
        return authorization.kmsDenial(context, target[0], target[1], target[2], target[3], kmsKeys);
    }

    /**
     * SNS calls: {@code sns:<Action>} on the topic, decided by the shared evaluator over the caller's identity
     * policies and the topic's {@code Policy} (the resource policy), as the SQS queue policy is. A direct call
     * carries no {@code aws:SourceOwner} (AWS sets it only when a service acts for a resource owner), so the default
     * policy's owner-only statement grants nobody by itself: a Deny anywhere denies;
     * in the topic's account identity OR topic policy allows; another account needs both (AddPermission's grants).
     * A topic that does not exist has no policy: another account's call on it is refused.
     *
     * @param topicPolicies the Policy of a topic by ARN, or null when there is no such topic
     */
    public HttpResponseData authorizeSns(RequestContext context, HttpRequestData raw,
                                         java.util.function.Function<String, String> topicPolicies) {
        if (!enforce) {
            return null;
        }
        String[] target = io.hikyaku.sns.SnsRequests.authorizationTarget(raw);
        String account = context.principal().accountId();
        String[] arn = target[1].split(":", -1);
        String topicAccount = arn.length >= 6 ? arn[4] : null;
        String topicPolicy = target[1].equals("*") || topicAccount == null ? null : topicPolicies.apply(target[1]);
        String denial;
        if (topicPolicy != null) {
            denial = authorization.kmsDenial(context, target[0], target[1], topicAccount, topicPolicy, java.util.Map.of());
        } else {
            denial = authorization.denial(context, target[0], target[1]);
            if (denial == null && !target[1].equals("*") && (account == null || !account.equals(topicAccount))) {
                denial = "User: " + (context.principal().isAnonymous() ? "anonymous" : context.principal().arn())
                        + " is not authorized to perform: " + target[0] + " on resource: " + target[1]
                        + " because no resource-based policy allows the " + target[0] + " action";
            }
        }
        return denial == null ? null : io.hikyaku.sns.SnsRequests.authorizationError(denial);
    }

    /**
     * Scheduler calls: {@code scheduler:<Operation>} on the schedule's or group's ARN; a request no operation
     * describes, or naming another account's resource, is refused; CreateSchedule and UpdateSchedule need
     * {@code iam:PassRole} on the target's {@code RoleArn}, as at AWS. The role's trust and rights are checked when
     * a fire sends ({@code SchedulerExecutionRoles}), as AWS does when it invokes the target.
     */
    public HttpResponseData authorizeScheduler(RequestContext context, HttpRequestData raw) {
        if (!enforce) {
            return null;
        }
        String account = context.principal().accountId();
        String[] target = io.hikyaku.scheduler.SchedulerRequests.authorizationTarget(raw, region, account);
        String who = context.principal().isAnonymous() ? "anonymous" : context.principal().arn();
        if (target[0] == null) {
            return io.hikyaku.scheduler.SchedulerRequests.accessDenied("User: " + who + " is not authorized to perform: "
                    + raw.method() + " " + raw.path() + " because this server does not implement that Scheduler operation");
        }
        String denial = anonymousWithoutResource(context, target[0], authorization.denial(context, target[0], target[1]));
        if (denial == null && !target[1].equals("*")) {
            String[] arn = target[1].split(":", -1);
            if (arn.length < 6 || account == null || !account.equals(arn[4])) {
                denial = "User: " + who + " is not authorized to perform: " + target[0] + " on resource: " + target[1]
                        + " because the resource is not in the caller's account";
            }
        }
        String roleArn = denial == null ? io.hikyaku.scheduler.SchedulerRequests.targetRoleArn(raw) : null;
        if (roleArn != null) {
            denial = authorization.denial(context, "iam:PassRole", roleArn);
        }
        return denial == null ? null : io.hikyaku.scheduler.SchedulerRequests.accessDenied(denial);
    }

    /** Whether {@code context} may perform an SQS action on a queue (the Scheduler's fires, as their execution role). */
    public boolean mayOnQueue(RequestContext context, String iamAction, String account, String queueName) {
        return !enforce || authorization.mayOnQueue(context, iamAction, account, queueName);
    }

    /**
     * Authorizes a call of the Lambda event-source-mapping API through its operation table
     * ({@link LambdaOperations}): as its IAM action ({@code lambda:CreateEventSourceMapping},
     * {@code lambda:TagResource} ...) on {@code "*"} for create and list, on the mapping's ARN otherwise.
     * A request not in the table is refused (fail closed), and so is a tag call naming another
     * account's ARN (a caller reaches only its own account's mappings).
     *
     * @return null when allowed (or auth none), else the response to send
     */
    public HttpResponseData authorizeLambda(RequestContext context, HttpRequestData raw) {
        if (!enforce) {
            return null;
        }
        LambdaOperations.Operation op = LambdaOperations.find(raw.method(), raw.path());
        String account = context.principal().accountId();
        if (op == null) {
            return LambdaApi.accessDenied("User: " + (context.principal().isAnonymous() ? "anonymous" : context.principal().arn())
                    + " is not authorized to perform: " + raw.method() + " " + raw.path()
                    + " because this server does not implement that Lambda operation");
        }
        String resource = op.resource(region, account);
        String denial = anonymousWithoutResource(context, op.iamAction(), authorization.denial(context, op.iamAction(), resource));
        if (denial != null) {
            return LambdaApi.accessDenied(denial);
        }
        if (op.resourceArn() != null && (account == null || !account.equals(LambdaOperations.accountOfArn(op.resourceArn())))) {
            return LambdaApi.accessDenied("User: " + context.principal().arn() + " is not authorized to perform: "
                    + op.iamAction() + " on resource: " + resource + " because the resource is not in the caller's account");
        }
        return queueOfMapping(context, raw);
    }

    /**
     * A mapping's queue is read by push delivery on the caller's behalf, so (as Lambda requires of the
     * function's execution role) the caller must itself be allowed sqs:ReceiveMessage, sqs:DeleteMessage
     * and sqs:GetQueueAttributes on it, its own queue or another account's that grants them.
     */
    private HttpResponseData queueOfMapping(RequestContext context, HttpRequestData raw) {
        if (!raw.method().equals("POST") && !raw.method().equals("PUT")) {
            return null;
        }
        String arn;
        try {
            arn = RequestAuthorization.text(MAPPER.readTree(raw.body()), "EventSourceArn");
        } catch (java.io.IOException | RuntimeException malformed) {
            return null; // the mapping API answers a malformed body itself
        }
        io.hikyaku.engine.QueueRef queue = io.hikyaku.api.QueueAddress.parseArn(arn).orElse(null);
        if (queue == null) {
            return null;
        }
        for (String action : new String[] {"ReceiveMessage", "DeleteMessage", "GetQueueAttributes"}) {
            if (!authorization.mayOnQueue(context, "sqs:" + action, queue.accountId(), queue.name())) {
                return LambdaApi.invalidParameter("The provided execution role does not have permissions to call " + action + " on SQS");
            }
        }
        return null;
    }

    /**
     * An anonymous caller's refusal names no resource: an anonymous caller has no account, so a resource
     * ARN built from the caller's account would read {@code arn:aws:scheduler:<region>:null:...}, and AWS's
     * anonymous refusals (SQS's legacy text) name no principal's resource either. The decision is the
     * evaluator's, unchanged (these APIs have no resource policies, so anonymous is always refused).
     */
    private static String anonymousWithoutResource(RequestContext context, String iamAction, String denial) {
        if (denial == null || !context.principal().isAnonymous()) {
            return denial;
        }
        return "User: anonymous is not authorized to perform: " + iamAction + " because no identity-based policy allows the "
                + iamAction + " action";
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Whether requests are authorized (auth sigv4); with auth none every caller may do everything. */
    public boolean enforces() {
        return enforce;
    }
}
