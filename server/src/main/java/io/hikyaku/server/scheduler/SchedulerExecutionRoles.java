package io.hikyaku.server.scheduler;

import io.hikyaku.api.sse.KeyCaller;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.PrincipalType;
import io.hikyaku.identity.RequestContext;
import io.hikyaku.identity.Role;
import io.hikyaku.policy.Decision;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.scheduler.ExecutionRoles;
import io.hikyaku.server.auth.RequestAuthentication;
import io.hikyaku.server.sse.KmsKeyCallers;
import io.hikyaku.sns.SnsApi;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Scheduler's execution roles with {@code --auth sigv4}, decided at each send from the identities in force (a
 * role added or fixed later makes the next retry succeed): the role must be configured, its trust policy must allow
 * {@code sts:AssumeRole} to the service principal {@code scheduler.amazonaws.com} (with {@code aws:SourceAccount} =
 * the schedule's account and {@code aws:SourceArn} = its schedule group's ARN, the keys AWS's confused-deputy
 * guidance puts in trust policies), and the send is then authorized as a session of that role: its policies and
 * the queue's policy for {@code sqs:SendMessage}, the key policy for an SSE-KMS queue's key. Until the server's
 * authentication exists every send is refused (fail closed).
 */
public final class SchedulerExecutionRoles implements ExecutionRoles {

    static final String SERVICE = "scheduler.amazonaws.com";
    /** The session name of the role's sessions ({@code assumed-role/<role>/<session>}): Hikyaku's choice. */
    static final String SESSION = "hikyaku-scheduler";

    private final Supplier<RequestAuthentication> authentication;
    private final Supplier<SnsApi> sns;
    private final Clock clock;

    public SchedulerExecutionRoles(Supplier<RequestAuthentication> authentication, Clock clock) {
        this(authentication, () -> null, clock);
    }

    /** @param sns this server's SNS, for a topic target's Policy (null while there is none) */
    public SchedulerExecutionRoles(Supplier<RequestAuthentication> authentication, Supplier<SnsApi> sns, Clock clock) {
        this.authentication = authentication;
        this.sns = sns;
        this.clock = clock;
    }

    @Override
    public String sendDenial(String roleArn, String scheduleArn, String queueArn) {
        RequestAuthentication auth = authentication.get();
        Assumed assumed = assume(auth, roleArn, scheduleArn);
        if (assumed.denial() != null) {
            return assumed.denial();
        }
        String[] q = queueArn.split(":");
        if (q.length != 6) {
            return "Invalid target " + queueArn;
        }
        return auth.mayOnQueue(assumed.session(), "sqs:SendMessage", q[4], q[5]) ? null
                : "The execution role " + roleArn + " is not authorized to perform: sqs:SendMessage on resource: " + queueArn;
    }

    /** {@code sns:Publish} as the role: its policies and the topic's Policy, as a direct Publish by the session. */
    @Override
    public String publishDenial(String roleArn, String scheduleArn, String topicArn) {
        RequestAuthentication auth = authentication.get();
        Assumed assumed = assume(auth, roleArn, scheduleArn);
        if (assumed.denial() != null) {
            return assumed.denial();
        }
        SnsApi api = sns.get();
        String policy = api == null ? null : api.topicPolicy(topicArn);
        String denial = auth.kmsDenial(assumed.session(), new String[] {"sns:Publish", topicArn, topicArn.split(":")[4], policy}, Map.of());
        return denial == null ? null : "The execution role " + roleArn + " is not authorized to perform: sns:Publish on resource: " + topicArn;
    }

    @Override
    public KeyCaller keyCaller(String roleArn, String scheduleArn) {
        RequestAuthentication auth = authentication.get();
        Assumed assumed = assume(auth, roleArn, scheduleArn);
        if (assumed.denial() != null) {
            return (action, keyArn, keyAccount, keyPolicy, keys) -> "The execution role " + roleArn + " cannot be assumed";
        }
        return KmsKeyCallers.of(auth, assumed.session());
    }

    /** The role's session as a caller, or why the Scheduler cannot assume the role (exactly one is set). */
    private record Assumed(RequestContext session, String denial) {
        static Assumed refused(String why) {
            return new Assumed(null, why);
        }
    }

    /** @param auth the server's authentication, null while it is not running yet (then nothing is assumed) */
    private Assumed assume(RequestAuthentication auth, String roleArn, String scheduleArn) {
        if (auth == null) {
            return Assumed.refused("The server's authentication is not running yet");
        }
        Role role = auth.identities().role(roleArn).orElse(null);
        if (role == null) {
            return Assumed.refused("The execution role " + roleArn + " does not exist");
        }
        String[] arn = scheduleArn.split(":", 6); // arn:aws:scheduler:<region>:<account>:schedule/<group>/<name>
        String account = arn[4];
        String groupArn = String.join(":", arn[0], arn[1], arn[2], arn[3], arn[4], "schedule-group/" + arn[5].split("/")[1]);
        if (!trusts(role, account, groupArn)) {
            return Assumed.refused("The execution role " + roleArn + " does not trust " + SERVICE);
        }
        String roleId = role.roleId() != null ? role.roleId() : io.hikyaku.identity.UniqueIds.role(role.accountId(), role.name());
        Principal principal = new Principal(PrincipalType.ASSUMED_ROLE, role.accountId(),
                "arn:aws:sts::" + role.accountId() + ":assumed-role/" + role.name() + "/" + SESSION, roleId + ":" + SESSION,
                null, role.arn(), role.policies(), null);
        return new Assumed(new RequestContext(principal, null, true, clock.instant(), SERVICE), null);
    }

    private static boolean trusts(Role role, String account, String groupArn) {
        if (role.trustPolicy() == null) {
            return false;
        }
        try {
            var trust = PolicyCache.shared().get(role.trustPolicy(), PolicyKind.TRUST);
            var c = new io.hikyaku.policy.RequestContext(SERVICE, null, io.hikyaku.policy.PrincipalType.SERVICE, null, null,
                    "sts:AssumeRole", role.arn(), role.accountId(),
                    Map.of("aws:SourceAccount", List.of(account), "aws:SourceArn", List.of(groupArn)));
            Decision d = PolicyEvaluator.evaluate(c, List.of(), trust, null);
            return d.allowed();
        } catch (PolicyException invalid) {
            return false; // a trust policy that does not parse trusts nobody
        }
    }
}
