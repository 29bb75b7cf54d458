package io.hikyaku.it.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.amazonaws.AmazonServiceException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** Runs a call that must fail and checks the error exactly as an application sees it through the SDK. */
public final class SqsErrors {
    private SqsErrors() {}

    @FunctionalInterface
    public interface Call {
        void run() throws Exception;
    }

    /** The SDK v2 exception thrown by {@code call}; fails the test when it succeeds or throws anything else. */
    public static AwsServiceException v2Error(Call call) {
        try {
            call.run();
        } catch (AwsServiceException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected an AwsServiceException but got " + e, e);
        }
        return fail("expected the call to fail with a service error, but it succeeded");
    }

    /** Checks code and status; and the message too when {@code message} is not null. */
    public static AwsServiceException assertV2Error(Call call, String code, int status, String message) {
        AwsServiceException e = v2Error(call);
        assertThat(e.awsErrorDetails().errorCode()).as("error code of %s", e).isEqualTo(code);
        assertThat(e.statusCode()).as("HTTP status of %s", e).isEqualTo(status);
        if (message != null) {
            assertThat(e.awsErrorDetails().errorMessage()).as("message of %s", e).isEqualTo(message);
        }
        return e;
    }

    public static AwsServiceException assertV2Error(Call call, String code, String message) {
        return assertV2Error(call, code, 400, message);
    }

    public static AmazonServiceException v1Error(Call call) {
        try {
            call.run();
        } catch (AmazonServiceException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected an AmazonServiceException but got " + e, e);
        }
        return fail("expected the call to fail with a service error, but it succeeded");
    }

    public static AmazonServiceException assertV1Error(Call call, String code, int status, String message) {
        AmazonServiceException e = v1Error(call);
        assertThat(e.getErrorCode()).as("error code of %s", e).isEqualTo(code);
        assertThat(e.getStatusCode()).as("HTTP status of %s", e).isEqualTo(status);
        if (message != null) {
            assertThat(e.getErrorMessage()).as("message of %s", e).isEqualTo(message);
        }
        return e;
    }

    public static AmazonServiceException assertV1Error(Call call, String code, String message) {
        return assertV1Error(call, code, 400, message);
    }
}
