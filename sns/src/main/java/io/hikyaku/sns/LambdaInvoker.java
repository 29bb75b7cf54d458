package io.hikyaku.sns;

import java.io.IOException;

/**
 * How SNS reaches the functions of {@code lambda} subscriptions: the server hands in the push-delivery module's
 * functions (module sns does not depend on module push). Called from the outbox's worker threads; may block.
 */
@FunctionalInterface
public interface LambdaInvoker {

    /** The function answered 2xx. */
    int DELIVERED = 200;
    /** No such function in the ARN's account: a client-side error, not retried (the subscription's DLQ gets it). */
    int NO_SUCH_FUNCTION = 404;
    /** The function failed (an error answer, a timeout, unreachable) or functions are not running yet: retried. */
    int FAILED = 500;

    /**
     * Invokes the function {@code functionArn} names with Lambda's SNS event.
     * @return {@link #DELIVERED}, {@link #NO_SUCH_FUNCTION} or {@link #FAILED}
     */
    int invoke(String functionArn, String subscriptionArn, byte[] event) throws IOException;

    /** No functions configured: every lambda delivery is a missing function. */
    LambdaInvoker NONE = (functionArn, subscriptionArn, event) -> NO_SUCH_FUNCTION;
}
