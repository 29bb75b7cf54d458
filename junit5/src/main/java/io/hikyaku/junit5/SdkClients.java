package io.hikyaku.junit5;

import io.hikyaku.embedded.Hikyaku;
import java.lang.reflect.InvocationTargetException;
import java.util.Set;

/**
 * AWS SDK v2 clients for a test parameter, pointed at the server with dummy credentials: the synchronous client
 * of every service the server answers (SQS, SNS, KMS, the Scheduler, CloudWatch, STS, and Lambda's event source
 * mapping API). The SDK is an optional dependency: its classes are only touched once a parameter's type is known
 * to be one of these, and each service's client comes from the test's own classpath (its static {@code builder()}).
 */
final class SdkClients {

    /** The clients a parameter may ask for; any other SDK client is not served by Hikyaku, so not injected. */
    static final Set<String> SERVED = Set.of(
            "software.amazon.awssdk.services.sqs.SqsClient",
            "software.amazon.awssdk.services.sns.SnsClient",
            "software.amazon.awssdk.services.kms.KmsClient",
            "software.amazon.awssdk.services.scheduler.SchedulerClient",
            "software.amazon.awssdk.services.cloudwatch.CloudWatchClient",
            "software.amazon.awssdk.services.sts.StsClient",
            "software.amazon.awssdk.services.lambda.LambdaClient");

    private SdkClients() {
    }

    static boolean supports(Class<?> type) {
        return SERVED.contains(type.getName());
    }

    static AutoCloseable create(Class<?> type, Hikyaku server) {
        return supports(type) ? Builders.client(type, server) : null;
    }

    /** Loaded only when a served client is asked for (the SDK's core is then on the classpath). */
    private static final class Builders {
        @SuppressWarnings({"rawtypes", "unchecked"})
        static AutoCloseable client(Class<?> type, Hikyaku server) {
            Object builder;
            try {
                builder = type.getMethod("builder").invoke(null);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new IllegalStateException(type.getName() + " has no static builder()", e);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException(type.getName() + ".builder() failed", e.getCause());
            }
            software.amazon.awssdk.awscore.client.builder.AwsClientBuilder b =
                    (software.amazon.awssdk.awscore.client.builder.AwsClientBuilder) builder;
            b.endpointOverride(server.endpoint());
            b.region(software.amazon.awssdk.regions.Region.of(server.config().region()));
            b.credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("test", "test")));
            return (AutoCloseable) b.build();
        }
    }
}
