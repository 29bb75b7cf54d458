package io.hikyaku.server.cli;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.cli.Options;

/**
 * {@code hikyaku selfcheck} (hidden): starts a durable server on 127.0.0.1 and an ephemeral port in
 * a temporary data directory, drives one message through both wire protocols, stops and cleans up.
 * Exit 0 when every answer was right. The launcher runs it once per build with
 * {@code -XX:ArchiveClassesAtExit} so that later starts map the classes it loaded from a CDS
 * archive instead of loading and verifying them again (docs/operations.md).
 */
final class SelfCheckCommand implements Subcommand {

    private static final String JSON = "application/x-amz-json-1.0";

    private final Map<String, String> env;

    SelfCheckCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "selfcheck";
    }

    @Override
    public String summary() {
        return "Start a throwaway server, use it, stop it.";
    }

    @Override
    public boolean hidden() {
        return true;
    }

    @Override
    public Options options() {
        return new Options();
    }

    @Override
    public int run(Flags flags, PrintWriter out) throws IOException {
        Path dir = Files.createTempDirectory("hikyaku-selfcheck-");
        try {
            // The same path `serve` takes: flags parsed and resolved with the environment.
            ServeCommand serve = new ServeCommand(env);
            ServerConfig config = serve.resolveConfig("--host", "127.0.0.1", "--port", "0", "--data-dir", dir.toString());
            HikyakuServer server = HikyakuServer.start(config);
            try {
                check(server.endpoint());
            } finally {
                server.close();
            }
            out.println("hikyaku selfcheck: ok");
            return 0;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void check(String endpoint) throws IOException {
        expect(call(endpoint + "/health", null, null, null), "");
        String url = endpoint + "/000000000000/selfcheck";
        expect(json(endpoint, "CreateQueue", "{\"QueueName\":\"selfcheck\"}"), "QueueUrl");
        expect(json(endpoint, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"json\","
                + "\"MessageAttributes\":{\"a\":{\"DataType\":\"String\",\"StringValue\":\"b\"}}}"), "MD5OfMessageBody");
        expect(call(endpoint, "Action=SendMessage&Version=2012-11-05&QueueUrl=" + url + "&MessageBody=query",
                "application/x-www-form-urlencoded", null), "<SendMessageResponse");
        String received = json(endpoint, "ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10,"
                + "\"MessageAttributeNames\":[\"All\"],\"MessageSystemAttributeNames\":[\"All\"]}");
        expect(received, "ReceiptHandle");
        expect(call(endpoint, "Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + url + "&VisibilityTimeout=0",
                "application/x-www-form-urlencoded", null), "<ReceiveMessageResponse");
        expect(json(endpoint, "GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}"),
                "ApproximateNumberOfMessages");
        expect(json(endpoint, "DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}"), "");
    }

    private static String json(String endpoint, String action, String body) throws IOException {
        return call(endpoint, body, JSON, "AmazonSQS." + action);
    }

    private static String call(String url, String body, String contentType, String target) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        if (body != null) {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", contentType);
            if (target != null) {
                c.setRequestProperty("X-Amz-Target", target);
            }
            try (OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = c.getResponseCode();
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (status != 200) {
                throw new IOException(url + " answered " + status + ": " + text);
            }
            return text;
        }
    }

    private static void expect(String text, String part) throws IOException {
        if (!text.contains(part)) {
            throw new IOException("unexpected answer: " + text);
        }
    }
}
