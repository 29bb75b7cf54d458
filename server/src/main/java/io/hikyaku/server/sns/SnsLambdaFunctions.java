package io.hikyaku.server.sns;

import io.hikyaku.push.PushService;
import io.hikyaku.sns.LambdaInvoker;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * SNS's {@code lambda} subscriptions onto the push-delivery module's functions (the config file's): the server joins
 * the two modules so that sns does not depend on push. Without push delivery running every delivery fails and is
 * retried (a restart in progress), and a function the config does not declare is a missing function. A function
 * of another account than the topic's is never invoked: it is treated as missing (the subscription's DLQ).
 */
public final class SnsLambdaFunctions implements LambdaInvoker {

    private final Supplier<PushService> push;

    public SnsLambdaFunctions(Supplier<PushService> push) {
        this.push = push;
    }

    @Override
    public int invoke(String functionArn, String subscriptionArn, byte[] event) {
        if (!sameAccount(functionArn, subscriptionArn)) {
            // Lambda would need the function's resource policy to let this topic invoke it; functions here have
            // none, so only the topic's own account's functions are invoked (another account's: as if missing, DLQ)
            return NO_SUCH_FUNCTION;
        }
        PushService p = push.get();
        if (p == null) {
            return FAILED;
        }
        try {
            return switch (p.invokeFunction(functionArn, subscriptionArn, event).join()) {
                case DELIVERED -> DELIVERED;
                case NO_SUCH_FUNCTION -> NO_SUCH_FUNCTION;
                case FAILED -> FAILED;
            };
        } catch (CompletionException e) {
            return FAILED;
        }
    }

    /** Whether the function ARN (arn:aws:lambda:region:account:function:name) is in the subscription's account. */
    static boolean sameAccount(String functionArn, String subscriptionArn) {
        String[] function = functionArn.split(":", -1);
        String[] subscription = subscriptionArn.split(":", -1);
        return function.length == 7 && subscription.length >= 6 && !function[4].isEmpty()
                && function[4].equals(subscription[4]);
    }
}
