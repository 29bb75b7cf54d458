package io.hikyaku.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Request contexts for tests: callers of accounts 111111111111 (queue owner) and 222222222222. */
final class Contexts {
    static final String OWNER = "111111111111";
    static final String OTHER = "222222222222";
    static final String QUEUE_ARN = "arn:aws:sqs:us-east-1:111111111111:orders";

    private final String principalArn;
    private final String account;
    private final PrincipalType type;
    private final String userId;
    private final String username;
    private String action = "sqs:SendMessage";
    private String resource = QUEUE_ARN;
    private String resourceAccount = OWNER;
    private final Map<String, List<String>> keys = new HashMap<>();

    private Contexts(String principalArn, String account, PrincipalType type, String userId, String username) {
        this.principalArn = principalArn;
        this.account = account;
        this.type = type;
        this.userId = userId;
        this.username = username;
    }

    static Contexts user(String account, String name) {
        return new Contexts("arn:aws:iam::" + account + ":user/" + name, account, PrincipalType.USER,
                "AIDA" + name.toUpperCase() + "0000000000", name);
    }

    static Contexts root(String account) {
        return new Contexts("arn:aws:iam::" + account + ":root", account, PrincipalType.ACCOUNT, account, null);
    }

    static Contexts session(String account, String role, String session) {
        return new Contexts("arn:aws:sts::" + account + ":assumed-role/" + role + "/" + session, account,
                PrincipalType.ASSUMED_ROLE, "AROAROLEID00000000:" + session, null);
    }

    static Contexts anonymous() {
        return new Contexts(null, null, PrincipalType.ANONYMOUS, null, null);
    }

    static Contexts service(String service) {
        return new Contexts(service, null, PrincipalType.SERVICE, null, null);
    }

    Contexts action(String value) {
        this.action = value;
        return this;
    }

    Contexts resource(String arn, String owner) {
        this.resource = arn;
        this.resourceAccount = owner;
        return this;
    }

    Contexts key(String key, String... values) {
        keys.put(key, List.of(values));
        return this;
    }

    RequestContext build() {
        return new RequestContext(principalArn, account, type, userId, username, action, resource, resourceAccount, keys);
    }
}
