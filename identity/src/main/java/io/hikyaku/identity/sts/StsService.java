package io.hikyaku.identity.sts;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.NewKeys;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.PrincipalType;
import io.hikyaku.identity.Role;
import io.hikyaku.identity.Secret;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The STS actions SDK credential chains and test fixtures call: GetCallerIdentity, AssumeRole and
 * GetSessionToken (Query protocol, 2011-06-15), as listed in {@link StsOperations}, which decides what
 * each is authorized as; an action not listed there is {@code InvalidAction}. Minted credentials live
 * in {@link Sessions}.
 *
 * <p>With {@code enforce} (auth sigv4) AssumeRole needs a configured role whose trust policy allows
 * the caller and a caller allowed to call {@code sts:AssumeRole} ({@link TrustPolicyCheck}, the IAM
 * policy evaluator); without it (auth none) any role ARN can be assumed, as
 * emulators do, and the new credentials act in the ARN's account.
 */
public final class StsService {

    public static final String VERSION = "2011-06-15";
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws:iam::(\\d{12}):role/(?:[\\w+=,.@-]+/)*([\\w+=,.@-]{1,64})");
    private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]*");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_SESSION_POLICY_CHARS = 2048;

    private final Supplier<Identities> identities;
    private final Sessions sessions;
    private final NewKeys keys;
    private final Clock clock;
    private final boolean enforce;

    public StsService(Identities identities, Sessions sessions, NewKeys keys, Clock clock, boolean enforce) {
        this(() -> identities, sessions, keys, clock, enforce);
    }

    /** @param identities the identities in force, read afresh for every request (they can be reloaded) */
    public StsService(Supplier<Identities> identities, Sessions sessions, NewKeys keys, Clock clock, boolean enforce) {
        this.identities = identities;
        this.sessions = sessions;
        this.keys = keys;
        this.clock = clock;
        this.enforce = enforce;
    }

    /** True for the actions this service answers (those in {@link StsOperations}). */
    public static boolean isStsAction(String action) {
        return StsOperations.find(action) != null;
    }

    /**
     * Runs {@code action} for {@code caller}.
     *
     * @return the result's members as XML (to go inside {@code <{action}Result>})
     * @throws StsException with STS's code for every refusal
     */
    public String handle(String action, Map<String, String> params, Principal caller) {
        return handle(action, params, caller, Map.of());
    }

    /**
     * @param conditionKeys the request's global condition keys (aws:SourceIp, aws:SecureTransport,
     *                      aws:CurrentTime, ...) for the trust policy's conditions
     */
    public String handle(String action, Map<String, String> params, Principal caller, Map<String, List<String>> conditionKeys) {
        return handle(action, params, caller, conditionKeys, null);
    }

    /**
     * @param callerKeyId the access key id the request was made with (null if none): the parent of the
     *                    session it mints, and whether the caller holds session credentials
     */
    public String handle(String action, Map<String, String> params, Principal caller, Map<String, List<String>> conditionKeys,
                         String callerKeyId) {
        if (action == null || action.isEmpty()) {
            throw new StsException("MissingAction", 400, "Missing Action");
        }
        if (enforce && caller.isAnonymous()) {
            throw new StsException("MissingAuthenticationToken", 403, "Request is missing Authentication Token");
        }
        StsOperations.Operation op = StsOperations.find(action);
        if (op == null) {
            throw StsOperations.invalidAction(action);
        }
        return switch (op) {
            case GET_CALLER_IDENTITY -> getCallerIdentity(caller);
            case ASSUME_ROLE -> assumeRole(op, params, caller, conditionKeys, callerKeyId);
            case GET_SESSION_TOKEN -> getSessionToken(params, caller, callerKeyId);
        };
    }

    private static String getCallerIdentity(Principal caller) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Arn", caller.arn());
        m.put("UserId", caller.userId());
        m.put("Account", caller.accountId());
        return StsXml.elements(m);
    }

    private String assumeRole(StsOperations.Operation op, Map<String, String> params, Principal caller,
                              Map<String, List<String>> conditionKeys, String callerKeyId) {
        String roleArn = op.resource(params);
        String sessionName = params.get("RoleSessionName");
        if (roleArn == null) {
            throw StsException.validation("1 validation error detected: Value null at 'roleArn' failed to satisfy constraint: Member must not be null");
        }
        if (sessionName == null) {
            throw StsException.validation("1 validation error detected: Value null at 'roleSessionName' failed to satisfy constraint: Member must not be null");
        }
        if (roleArn.length() < 20 || roleArn.length() > 2048) {
            throw StsException.validation("1 validation error detected: Value '" + roleArn + "' at 'roleArn' failed to satisfy constraint: "
                    + "Member must have length " + (roleArn.length() < 20 ? "greater than or equal to 20" : "less than or equal to 2048"));
        }
        if (sessionName.length() < 2 || sessionName.length() > 64) {
            throw StsException.validation("1 validation error detected: Value '" + sessionName + "' at 'roleSessionName' failed to satisfy constraint: "
                    + "Member must have length " + (sessionName.length() < 2 ? "greater than or equal to 2" : "less than or equal to 64"));
        }
        if (!SESSION_NAME.matcher(sessionName).matches()) {
            throw StsException.validation("1 validation error detected: Value '" + sessionName + "' at 'roleSessionName' failed to satisfy constraint: "
                    + "Member must satisfy regular expression pattern: [\\w+=,.@-]*");
        }
        var arn = ROLE_ARN.matcher(roleArn);
        if (!arn.matches()) {
            throw StsException.validation(roleArn + " is invalid");
        }
        Optional<Role> configured = identities.get().role(roleArn);
        Role role;
        if (configured.isPresent()) {
            role = configured.get();
            String denial = enforce ? authorize(op, role, caller, conditionKeys) : null;
            if (denial != null) {
                throw StsException.accessDenied(denial);
            }
        } else if (enforce) {
            throw notAuthorized(op, caller, roleArn);
        } else {
            role = new Role(arn.group(1), arn.group(2), null, null, Map.of(), 43200);
        }
        boolean chained = caller.type() == PrincipalType.ASSUMED_ROLE;
        int duration = durationSeconds(params.get("DurationSeconds"), 900, 43200, 3600);
        if (chained && duration > 3600 && params.get("DurationSeconds") != null) {
            throw StsException.validation("The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.");
        }
        if (duration > role.maxSessionDurationSeconds()) {
            throw StsException.validation("The requested DurationSeconds exceeds the MaxSessionDuration set for this role.");
        }
        String sessionPolicy = params.get("Policy");
        Integer packedPercent = null;
        if (sessionPolicy != null) {
            checkSessionPolicy(sessionPolicy);
            packedPercent = Math.max(1, (int) Math.ceil(sessionPolicy.length() * 100.0 / MAX_SESSION_POLICY_CHARS));
        }
        String roleId = role.roleId() != null ? role.roleId() : io.hikyaku.identity.UniqueIds.role(role.accountId(), role.name());
        String assumedArn = "arn:aws:sts::" + role.accountId() + ":assumed-role/" + role.name() + "/" + sessionName;
        Principal session = new Principal(PrincipalType.ASSUMED_ROLE, role.accountId(), assumedArn, roleId + ":" + sessionName,
                null, role.arn(), role.policies(), sessionPolicy);
        Credential issued = issue(session, duration, caller, callerKeyId, configured.isPresent() ? role.arn() : null);
        StringBuilder xml = new StringBuilder(credentialsXml(issued));
        Map<String, String> user = new LinkedHashMap<>();
        user.put("AssumedRoleId", session.userId());
        user.put("Arn", assumedArn);
        xml.append("<AssumedRoleUser>").append(StsXml.elements(user)).append("</AssumedRoleUser>");
        if (packedPercent != null) {
            xml.append("<PackedPolicySize>").append(packedPercent).append("</PackedPolicySize>");
        }
        return xml.toString();
    }

    private String getSessionToken(Map<String, String> params, Principal caller, String callerKeyId) {
        // any temporary credentials: an assumed role's, and GetSessionToken's own (AWS: only
        // AssumeRole and GetCallerIdentity may be called with those)
        if (caller.type() == PrincipalType.ASSUMED_ROLE || sessions.session(callerKeyId).isPresent()) {
            throw StsException.accessDenied("Cannot call GetSessionToken with session credentials");
        }
        boolean root = caller.type() == PrincipalType.ACCOUNT;
        int duration = durationSeconds(params.get("DurationSeconds"), 900, root ? 3600 : 129600, root ? 3600 : 43200);
        return credentialsXml(issue(caller, duration, caller, callerKeyId, null));
    }

    /**
     * A session policy must be a policy AWS would accept: JSON, within the packed size, and valid in
     * the grammar of a session policy (no Principal, Allow/Deny, actions, resources, conditions).
     */
    private static void checkSessionPolicy(String sessionPolicy) {
        try {
            JSON.readTree(sessionPolicy);
        } catch (IOException e) {
            throw malformed("The policy is not in the valid JSON format.");
        }
        if (sessionPolicy.length() > MAX_SESSION_POLICY_CHARS) {
            throw new StsException("PackedPolicyTooLarge", 400, "Packed policy consumes more than 100% of the allotted space.");
        }
        try {
            PolicyCache.shared().get(sessionPolicy, PolicyKind.SESSION);
        } catch (PolicyException invalid) {
            throw malformed(invalid.getMessage().startsWith("The policy document must be a JSON object")
                    ? "The policy is not in the valid JSON format." : "Syntax errors in policy.");
        }
    }

    private static StsException malformed(String message) {
        return new StsException("MalformedPolicyDocument", 400, message);
    }

    /**
     * Mints a session for {@code principal} on behalf of {@code caller}, counted against the caller's
     * and its account's quotas.
     *
     * @param roleArn the configured role (the session ends when a reload removes it), else null
     */
    private Credential issue(Principal principal, int seconds, Principal caller, String callerKeyId, String roleArn) {
        Instant expiration = clock.instant().truncatedTo(ChronoUnit.SECONDS).plusSeconds(seconds);
        Credential c = new Credential(keys.temporaryKeyId(), new Secret(keys.secret()), principal, new Secret(keys.sessionToken()), expiration);
        boolean parentKnown = callerKeyId != null
                && (identities.get().key(callerKeyId).isPresent() || sessions.session(callerKeyId).isPresent());
        // With auth none every unknown key is the same root, and nobody is kept apart anyway: only the total bounds memory
        Session session = new Session(c, parentKnown ? callerKeyId : null, caller.arn(), roleArn,
                enforce ? (caller.accountId() == null ? "anonymous" : caller.accountId()) : null, enforce ? caller.arn() : null);
        Sessions.Refusal full = sessions.add(session);
        if (full != null) {
            throw new StsException("LimitExceeded", 400, switch (full) {
                case PRINCIPAL -> "Too many temporary credentials are active for " + caller.arn() + " (at most " + Sessions.MAX_PER_PRINCIPAL + ").";
                case ACCOUNT -> "Too many temporary credentials are active for account " + caller.accountId()
                        + " (at most " + Sessions.MAX_PER_ACCOUNT + ").";
                case TOTAL -> "Too many temporary credentials are active (at most " + Sessions.MAX_SESSIONS + ").";
            });
        }
        return c;
    }

    private static String credentialsXml(Credential c) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("AccessKeyId", c.accessKeyId());
        m.put("SecretAccessKey", c.secret().reveal());
        m.put("SessionToken", c.sessionToken().reveal());
        m.put("Expiration", DateTimeFormatter.ISO_INSTANT.format(c.expiration()));
        return "<Credentials>" + StsXml.elements(m) + "</Credentials>";
    }

    private static int durationSeconds(String text, int min, int max, int absent) {
        if (text == null) {
            return absent;
        }
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw StsException.validation("1 validation error detected: Value '" + text + "' at 'durationSeconds' failed to satisfy constraint: "
                    + "Member must be a number");
        }
        if (value < min) {
            throw StsException.validation("1 validation error detected: Value '" + value + "' at 'durationSeconds' failed to satisfy constraint: "
                    + "Member must have value greater than or equal to " + min);
        }
        if (value > max) {
            throw StsException.validation("1 validation error detected: Value '" + value + "' at 'durationSeconds' failed to satisfy constraint: "
                    + "Member must have value less than or equal to " + max);
        }
        return value;
    }

    /**
     * Authorizes {@code op} as its table entry says: its IAM action on {@code role} by the role's trust
     * policy and the caller's policies.
     *
     * @return null when allowed, else the AccessDenied text
     */
    private static String authorize(StsOperations.Operation op, Role role, Principal caller, Map<String, List<String>> conditionKeys) {
        return switch (op.authorization()) {
            case ROLE_TRUST -> TrustPolicyCheck.denial(op.iamAction(), role, caller, conditionKeys);
            case NONE -> null;
        };
    }

    private static StsException notAuthorized(StsOperations.Operation op, Principal caller, String roleArn) {
        return StsException.accessDenied("User: " + caller.arn() + " is not authorized to perform: " + op.iamAction() + " on resource: " + roleArn);
    }
}
