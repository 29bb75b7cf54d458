package io.hikyaku.sns;

import io.hikyaku.protocol.HttpRequestData;

/**
 * Which requests are the unsigned links SNS gives subscribers (see {@link SnsApi#handleLink}): an unsigned GET of
 * {@code /?Action=ConfirmSubscription&TopicArn=arn:aws:sns:...&Token=...}, of
 * {@code /?Action=Unsubscribe&SubscriptionArn=arn:aws:sns:...}, or of the signing certificate's path. Neither action
 * exists in SQS, and the SNS ARN is required too, so a link is never mistaken for another service's request.
 */
public final class SnsLinks {

    private SnsLinks() {
    }

    public static boolean isLink(HttpRequestData raw) {
        if (!raw.method().equals("GET") || raw.header("authorization") != null) {
            return false;
        }
        if (raw.path().startsWith(SnsSigner.CERTIFICATE_PREFIX)) {
            return true;
        }
        String q = raw.rawQuery();
        if (!raw.path().equals("/") || q == null || q.contains("X-Amz-Credential") || q.contains("X-Amz-Signature")) {
            return false;
        }
        return (q.startsWith("Action=ConfirmSubscription&") && (q.contains("TopicArn=arn:aws:sns:")
                || q.contains("TopicArn=arn%3Aaws%3Asns%3A")) && q.contains("Token="))
                || (q.startsWith("Action=Unsubscribe&") && (q.contains("SubscriptionArn=arn:aws:sns:")
                || q.contains("SubscriptionArn=arn%3Aaws%3Asns%3A")));
    }
}
