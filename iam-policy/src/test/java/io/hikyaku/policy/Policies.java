package io.hikyaku.policy;

/** Small policy documents for tests; single quotes stand for double quotes to keep the JSON readable. */
final class Policies {
    private Policies() {}

    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    static Policy resource(String singleQuoted) {
        return parse(singleQuoted, PolicyKind.RESOURCE);
    }

    static Policy identity(String singleQuoted) {
        return parse(singleQuoted, PolicyKind.IDENTITY);
    }

    static Policy parse(String singleQuoted, PolicyKind kind) {
        try {
            return Policy.parse(json(singleQuoted), kind);
        } catch (PolicyException e) {
            throw new AssertionError("policy refused: " + e.getMessage(), e);
        }
    }

    /** An identity policy of one statement. */
    static Policy allowIdentity(String action, String resource) {
        return identity("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'" + action + "','Resource':'" + resource + "'}}");
    }

    static Policy denyIdentity(String action, String resource) {
        return identity("{'Version':'2012-10-17','Statement':{'Effect':'Deny','Action':'" + action + "','Resource':'" + resource + "'}}");
    }

    /** A queue policy of one Allow statement for a principal (a JSON value, single-quoted). */
    static Policy allowQueue(String principal, String action) {
        return resource("{'Version':'2012-10-17','Statement':[{'Effect':'Allow','Principal':" + principal
                + ",'Action':'" + action + "','Resource':'" + Contexts.QUEUE_ARN + "'}]}");
    }
}
