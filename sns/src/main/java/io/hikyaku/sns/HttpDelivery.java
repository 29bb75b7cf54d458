package io.hikyaku.sns;

import java.util.Map;

/**
 * One message for one HTTP/S subscriber: what is POSTed (headers and body, the same bytes on every attempt, so the
 * MessageId and signature stay the same), the retry schedule, and where it stands (attempts made, seconds waited).
 */
record HttpDelivery(String subscriptionArn, String topicArn, String endpoint, String messageType, String messageId,
                    Map<String, String> headers, byte[] body, HttpRetryPolicy policy) {
}
