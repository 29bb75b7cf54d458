package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request that repeats a part naming its signer (two Authorization headers, two X-Amz-Date, two
 * X-Amz-Credential query parameters ...) is refused before anything reads it, in both auth modes:
 * otherwise the verifier would read the first and the account selection and the log the last.
 */
class RepeatedCredentialPartsTest {

    static final String AUTH_A = "Authorization: AWS4-HMAC-SHA256 Credential=111111111111/20260102/us-east-1/sqs/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=00";
    static final String AUTH_B = AUTH_A.replace("111111111111", "222222222222");

    @Test
    void withAuthNoneTwoAuthorizationHeadersAreRefusedAndOneSelectsItsAccount() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(new QueueDefinition("orders", java.util.Map.of(), java.util.Map.of(), null, null, "222222222222")));
        try (HikyakuServer server = HikyakuServer.start(config); RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("ListQueues", "{}", AUTH_A, AUTH_B));
            RawHttp.Response twice = http.read();
            assertThat(twice.status()).isEqualTo(400);
            assertThat(twice.body()).contains("IncompleteSignature").contains("must not repeat the authorization header");
            assertThat(twice.body()).doesNotContain("orders");

            http.send(RawHttp.jsonCall("ListQueues", "{}", AUTH_B));
            RawHttp.Response once = http.read();
            assertThat(once.status()).isEqualTo(200);
            assertThat(once.body()).contains("222222222222/orders");

            for (String[] repeated : List.of(new String[] {"X-Amz-Date: 20260102T000000Z", "X-Amz-Date: 20260103T000000Z"},
                    new String[] {"X-Amz-Security-Token: a", "X-Amz-Security-Token: b"})) {
                http.send(RawHttp.jsonCall("ListQueues", "{}", AUTH_B, repeated[0], repeated[1]));
                RawHttp.Response r = http.read();
                assertThat(r.status()).as(repeated[0]).isEqualTo(400);
                assertThat(r.body()).contains("IncompleteSignature");
            }

            http.send("GET /?Action=ListQueues&X-Amz-Credential=111111111111%2F20260102%2Fus-east-1%2Fsqs%2Faws4_request"
                    + "&X-Amz-Credential=222222222222%2F20260102%2Fus-east-1%2Fsqs%2Faws4_request HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response query = http.read();
            assertThat(query.status()).isEqualTo(400);
            assertThat(query.body()).contains("IncompleteSignature").contains("X-Amz-Credential");
        }
    }

    @Test
    void withAuthSigv4TwoAuthorizationHeadersAreRefusedBeforeVerification() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
        try (HikyakuServer server = HikyakuServer.start(config, SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(Identities.NONE));
             RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("ListQueues", "{}", AUTH_A, AUTH_B));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("IncompleteSignature");
        }
    }
}
