package io.hikyaku.bench.jmh;

import io.hikyaku.bench.client.SigV4Signer;
import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Secret;
import io.hikyaku.identity.sigv4.SigV4Verifier;
import io.hikyaku.identity.sigv4.SignedRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What SigV4 verification costs the server per request: {@code verify} is the whole check of a
 * signed SendMessageBatch of ten 256-byte bodies (the bench's cycle request, signed by the bench
 * client's signer), {@code sha256OfBody} the floor it cannot go under (the payload hash alone).
 * Run: java -cp bench/target/hikyaku-bench.jar org.openjdk.jmh.Main 'io.hikyaku.bench.jmh.AuthBenchmarks'
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AuthBenchmarks {

    static final String KEY = "AKIABENCHROOT0000001";
    static final String SECRET = "bench/secret/0123456789abcdefghijklmnopqr";
    static final String HOST = "127.0.0.1:19324";
    static final String TARGET = "AmazonSQS.SendMessageBatch";
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";

    SigV4Verifier verifier;
    SignedRequest request;
    byte[] body;
    MessageDigest sha256;

    @Setup
    public void setup() throws NoSuchAlgorithmException {
        sha256 = MessageDigest.getInstance("SHA-256");
        StringBuilder json = new StringBuilder("{\"QueueUrl\":\"http://" + HOST + "/111111111111/bench\",\"Entries\":[");
        for (int i = 0; i < 10; i++) {
            json.append(i == 0 ? "" : ",").append("{\"Id\":\"m").append(i).append("\",\"MessageBody\":\"")
                    .append("x".repeat(256)).append("\"}");
        }
        body = json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        SigV4Signer.Signature sig = new SigV4Signer(KEY, SECRET, "us-east-1").sign(HOST, TARGET, CONTENT_TYPE, body);
        request = new SignedRequest("POST", "/", "", List.of(
                Map.entry("host", HOST),
                Map.entry("content-type", CONTENT_TYPE),
                Map.entry("x-amz-target", TARGET),
                Map.entry("x-amz-date", sig.amzDate()),
                Map.entry("authorization", sig.authorization()),
                Map.entry("content-length", Integer.toString(body.length))), body);
        Credential root = Credential.longTerm(KEY, new Secret(SECRET), Principal.accountRoot("111111111111"));
        verifier = new SigV4Verifier(Clock.systemUTC(), id -> id.equals(KEY) ? Optional.of(root) : Optional.empty());
        verifier.verify(request); // fails here, not in the loop, if the signature does not verify
    }

    @Benchmark
    public Object verify() {
        return verifier.verify(request);
    }

    @Benchmark
    public byte[] sha256OfBody() {
        return sha256.digest(body);
    }
}
