package io.hikyaku.policy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Amazon SQS's quotas on a queue policy (8,192 bytes, 20 statements, 7 actions per statement, 50
 * principals, 10 conditions) with the OverLimit messages SQS sends. Principals and conditions are
 * counted over the whole policy (each value of Principal / NotPrincipal, each key of each
 * condition operator); the principals and conditions messages follow the observed statements and
 * actions wording.
 */
public final class SqsPolicyQuotas {
    public static final int MAX_BYTES = 8192;
    public static final int MAX_STATEMENTS = 20;
    public static final int MAX_ACTIONS_PER_STATEMENT = 7;
    public static final int MAX_PRINCIPALS = 50;
    public static final int MAX_CONDITIONS = 10;

    private SqsPolicyQuotas() {}

    /** Checked before parsing: a document over 8,192 UTF-8 bytes. */
    public static Optional<String> sizeViolation(String document) {
        if (document.length() > MAX_BYTES || document.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            return Optional.of("Submitted policy is over max allowed size.");
        }
        return Optional.empty();
    }

    /** The first quota the parsed policy exceeds, as SQS words it. */
    public static Optional<String> violation(Policy policy) {
        int statements = policy.statements().size();
        if (statements > MAX_STATEMENTS) {
            return Optional.of(statements + " statements were found in the submitted policy, max allowed is " + MAX_STATEMENTS);
        }
        int principals = 0;
        int conditions = 0;
        for (Statement s : policy.statements()) {
            int actions = s.actions().size();
            if (actions > MAX_ACTIONS_PER_STATEMENT) {
                return Optional.of(actions + " actions were found in a statement from the submitted policy, max allowed is "
                        + MAX_ACTIONS_PER_STATEMENT);
            }
            principals += s.principalCount();
            conditions += s.conditions().size();
        }
        if (principals > MAX_PRINCIPALS) {
            return Optional.of(principals + " principals were found in the submitted policy, max allowed is " + MAX_PRINCIPALS);
        }
        if (conditions > MAX_CONDITIONS) {
            return Optional.of(conditions + " conditions were found in the submitted policy, max allowed is " + MAX_CONDITIONS);
        }
        return Optional.empty();
    }
}
