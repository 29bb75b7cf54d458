package io.hikyaku.server.http;

import io.hikyaku.identity.Principal;
import io.hikyaku.identity.PrincipalType;

/**
 * The SenderId SQS gives the messages a principal sends: its unique id ({@code AIDA...} for an IAM
 * user, {@code AROA...:session} for a role session), the account id for the account root. An
 * anonymous caller (allowed by a queue policy) has neither; its account's id stands in.
 */
final class SenderIds {

    private SenderIds() {}

    static String of(Principal principal) {
        if (principal.type() == PrincipalType.ANONYMOUS || principal.userId() == null) {
            return principal.accountId();
        }
        return principal.userId();
    }
}
