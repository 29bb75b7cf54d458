import io.hikyaku.embedded.Hikyaku;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;

/** The SDK's Netty 4.1 client and the embedded server's (relocated) Netty 4.2 in one JVM. */
public class Netty41Check {
    public static void main(String[] args) throws Exception {
        String netty = io.netty.util.Version.identify().values().iterator().next().artifactVersion();
        if (!netty.startsWith("4.1.")) {
            throw new AssertionError("expected the SDK's Netty 4.1 on the class path, found " + netty);
        }
        try (Hikyaku a = Hikyaku.builder().port(0).inMemory().start();
             Hikyaku b = Hikyaku.builder().port(0).inMemory().start()) {
            for (Hikyaku h : List.of(a, b)) {
                try (SqsAsyncClient sqs = SqsAsyncClient.builder().endpointOverride(h.endpoint()).region(Region.US_EAST_1)
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
                        .httpClient(NettyNioAsyncHttpClient.create()).build()) {
                    String url = sqs.createQueue(r -> r.queueName("q")).get().queueUrl();
                    sqs.sendMessage(r -> r.queueUrl(url).messageBody("over netty " + netty)).get();
                    String body = sqs.receiveMessage(r -> r.queueUrl(url)).get().messages().get(0).body();
                    if (!body.equals("over netty " + netty)) {
                        throw new AssertionError("received " + body);
                    }
                }
            }
        }
        System.out.println("OK: SDK netty-nio-client on Netty " + netty + " against two embedded servers");
    }
}
