package io.hikyaku.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.ClientScripts;
import io.hikyaku.it.support.SqsTestBase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * boto3's sqs and kms clients on encrypted queues ({@code compat/sse/sse_check.py}): the KMS.* errors and recovery,
 * with current boto3 (JSON) and Debian's boto3 (Query) when it is there.
 */
class Boto3SseCheckTest extends SqsTestBase {

    static java.util.List<String> pythons() {
        return ClientScripts.pythons();
    }

    @ParameterizedTest
    @MethodSource("pythons")
    void sseCheckPasses(String python) throws Exception {
        String protocol = python.startsWith("/usr/bin/") ? "query" : "json";
        String out = ClientScripts.runCheck(python, "sse/sse_check.py", endpoint, "--expect-protocol", protocol);
        assertThat(out).contains("protocol ['" + protocol + "']");
    }
}
