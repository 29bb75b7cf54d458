package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.kms.KmsRequests;
import io.hikyaku.push.LambdaApi;
import io.hikyaku.sns.SnsRequests;
import java.util.function.Predicate;

/**
 * Which API answers a request (STS is answered during authentication). A signed request is routed
 * by its credential scope's service when signatures are verified: the scope names the answering
 * service, and a request whose shape that service does not serve is refused, so a signature scoped
 * to {@code lambda} or {@code monitoring} never acts on SQS (nor the other way round). An unsigned
 * request, or any request with auth none, is routed by its shape: the Lambda paths, then what the
 * CloudWatch API accepts (its target or Version), then KMS (its scope, or a TrentService target), then SNS (its scope, or Version=2010-03-31), then SQS;
 * the Scheduler's paths come right after Lambda's.
 */
enum ServiceRoute {
    LAMBDA("lambda"),
    CLOUDWATCH("monitoring"),
    KMS("kms"),
    SNS("sns"),
    SCHEDULER("scheduler"),
    SQS("sqs");

    /** The service name a SigV4 credential scope carries for this API. */
    final String signingName;

    ServiceRoute(String signingName) {
        this.signingName = signingName;
    }

    /** By the request's shape alone. */
    static ServiceRoute byShape(HttpRequestData raw, Predicate<HttpRequestData> cloudWatchAccepts) {
        if (LambdaApi.handles(raw.path())) {
            return LAMBDA;
        }
        if (io.hikyaku.scheduler.SchedulerRequests.accepts(raw)) {
            return SCHEDULER; // its own paths (/schedules, /schedule-groups, /tags/arn:aws:scheduler:...)
        }
        if (cloudWatchAccepts != null && cloudWatchAccepts.test(raw)) {
            return CLOUDWATCH;
        }
        if (KmsRequests.accepts(raw)) {
            return KMS;
        }
        if (SnsRequests.accepts(raw)) {
            return SNS;
        }
        return SQS;
    }

    /**
     * @param signingService the credential scope's service of a verified signature, or null (unsigned, or auth none)
     * @return the route, or null when the scope's service does not serve this request (refused)
     */
    static ServiceRoute of(HttpRequestData raw, String signingService, Predicate<HttpRequestData> cloudWatchAccepts) {
        ServiceRoute shape = byShape(raw, cloudWatchAccepts);
        if (signingService == null) {
            return shape;
        }
        return shape.signingName.equals(signingService) ? shape : null;
    }
}
