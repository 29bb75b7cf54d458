package io.hikyaku.identity.sts;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The STS operation table: each operation the server serves, its IAM action, the resource it acts on,
 * how it is authorized and the protocols it is accepted in. The one place that knows STS operations:
 * {@link StsService} finds a request's operation here, authorizes it as the table says and runs it; an
 * action that is not here (unknown, or an STS action this server does not serve) is refused with
 * STS's {@code InvalidAction} (400) before anything else reads the request.
 *
 * <pre>
 *   GetCallerIdentity  sts:GetCallerIdentity  no resource     no policy (AWS: cannot be denied)
 *   AssumeRole         sts:AssumeRole         RoleArn         role's trust policy AND the caller's policies
 *   GetSessionToken    sts:GetSessionToken    no resource     no policy (AWS: policies do not control it)
 * </pre>
 */
public final class StsOperations {

    /** The request shapes an STS request may arrive in. STS speaks Query only (its model lists no other protocol). */
    public enum Protocol {
        /** {@code Action=<Op>&Version=2011-06-15}, form body or query string; XML answers. */
        QUERY,
        /** {@code X-Amz-Target: <prefix>.<Op>} with a JSON body: no STS operation accepts it. */
        JSON
    }

    /** How an operation is authorized. */
    public enum Authorization {
        /**
         * Not by policies: AWS documents that GetCallerIdentity needs no permission and cannot be
         * denied, and that policies do not control GetSessionToken. Any authenticated caller may.
         */
        NONE,
        /**
         * Its IAM action on the role named by {@link Operation#resourceParameter()}: the role's trust
         * policy must allow the caller, and the caller's identity (and session) policies too.
         */
        ROLE_TRUST
    }

    /** The operations served (an enum, so that execution's switch over them is exhaustive). */
    public enum Operation {
        GET_CALLER_IDENTITY("GetCallerIdentity", null, Authorization.NONE),
        ASSUME_ROLE("AssumeRole", "RoleArn", Authorization.ROLE_TRUST),
        GET_SESSION_TOKEN("GetSessionToken", null, Authorization.NONE);

        private final String operationName;
        private final String resourceParameter;
        private final Authorization authorization;

        Operation(String operationName, String resourceParameter, Authorization authorization) {
            this.operationName = operationName;
            this.resourceParameter = resourceParameter;
            this.authorization = authorization;
        }

        /** The Query {@code Action}. */
        public String operationName() {
            return operationName;
        }

        /** {@code sts:<Action>}. */
        public String iamAction() {
            return "sts:" + operationName;
        }

        /** The request parameter naming the resource acted on (the role ARN), or null: none. */
        public String resourceParameter() {
            return resourceParameter;
        }

        public Authorization authorization() {
            return authorization;
        }

        /** The request shapes accepted. */
        public Set<Protocol> protocols() {
            return QUERY_ONLY;
        }

        /** The resource this request acts on: the value of its resource parameter, or null when the operation has none. */
        public String resource(Map<String, String> params) {
            return resourceParameter == null ? null : params.get(resourceParameter);
        }
    }

    private static final Set<Protocol> QUERY_ONLY = Collections.unmodifiableSet(EnumSet.of(Protocol.QUERY));
    private static final Map<String, Operation> TABLE;

    static {
        Map<String, Operation> m = new LinkedHashMap<>();
        for (Operation o : Operation.values()) {
            m.put(o.operationName(), o);
        }
        TABLE = Collections.unmodifiableMap(m);
    }

    private StsOperations() {}

    /** The operation of that Action, or null when the server does not serve it (the request is then refused). */
    public static Operation find(String action) {
        return action == null ? null : TABLE.get(action);
    }

    /** Every operation, in table order. */
    public static Collection<Operation> all() {
        return TABLE.values();
    }

    /** STS's answer to an action that is not in the table. */
    public static StsException invalidAction(String action) {
        return new StsException("InvalidAction", 400, "Could not find operation " + action + " for version " + StsService.VERSION);
    }
}
