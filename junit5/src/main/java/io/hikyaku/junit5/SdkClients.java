package io.hikyaku.junit5;

import io.hikyaku.embedded.Hikyaku;

/**
 * AWS SDK v2 clients for a test parameter, pointed at the server with dummy credentials. The SDK is an
 * optional dependency: its classes are only touched once a parameter's type is known to be one of them.
 */
final class SdkClients {

    private static final String SQS = "software.amazon.awssdk.services.sqs.SqsClient";

    private SdkClients() {
    }

    static boolean supports(Class<?> type) {
        return type.getName().equals(SQS);
    }

    static AutoCloseable create(Class<?> type, Hikyaku server) {
        if (type.getName().equals(SQS)) {
            return Sqs.client(server);
        }
        return null;
    }

    /** Loaded only when an SqsClient is asked for. */
    private static final class Sqs {
        static AutoCloseable client(Hikyaku server) {
            return software.amazon.awssdk.services.sqs.SqsClient.builder()
                    .endpointOverride(server.endpoint())
                    .region(software.amazon.awssdk.regions.Region.of(server.config().region()))
                    .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                            software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("test", "test")))
                    .build();
        }
    }
}
