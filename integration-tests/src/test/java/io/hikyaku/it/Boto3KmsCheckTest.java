package io.hikyaku.it;

import io.hikyaku.it.support.ClientScripts;
import io.hikyaku.it.support.SqsTestBase;
import org.junit.jupiter.api.Test;

/** boto3's kms client against the real server ({@code compat/kms/kms_check.py}). */
class Boto3KmsCheckTest extends SqsTestBase {

    @Test
    void kmsCheckPasses() throws Exception {
        ClientScripts.runCheck("python3", "kms/kms_check.py", endpoint);
    }
}
