package io.hikyaku.server.sns;

import io.hikyaku.push.PushService;
import io.hikyaku.sns.LambdaInvoker;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * SNS's {@code lambda} subscriptions onto the push-delivery module's functions (the config file's): the server joins
 * the two modules so that sns does not depend on push. Without push delivery running every delivery fails and is
 * retried (a restart in progress), and a function the config does not declare is a missing function.
 */
public final class SnsLambdaFunctions implements LambdaInvoker {

    private final Supplier<PushService> push;

    public SnsLambdaFunctions(Supplier<PushService> push) {
        this.push = push;
    }

    @Override
    public int invoke(String functionArn, String subscriptionArn, byte[] event) {
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
}
