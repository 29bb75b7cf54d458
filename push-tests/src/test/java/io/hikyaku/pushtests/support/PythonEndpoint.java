package io.hikyaku.pushtests.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The Python endpoint of the test resources ({@code push_endpoint.py}) as a child process on 127.0.0.1. */
public final class PythonEndpoint implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final Path log;
    private final int port;

    public PythonEndpoint(Path dir, String signingSecret) throws Exception {
        log = dir.resolve("python-endpoint-" + System.nanoTime() + ".jsonl");
        Path script = Path.of(PythonEndpoint.class.getResource("/push_endpoint.py").toURI());
        List<String> cmd = new ArrayList<>(List.of("python3", script.toString(), log.toString()));
        if (signingSecret != null) {
            cmd.add(signingSecret);
        }
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (first == null || !first.startsWith("PORT ")) {
            process.destroyForcibly();
            throw new IllegalStateException("python endpoint did not start: " + first);
        }
        port = Integer.parseInt(first.substring(5).trim());
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port + "/invoke");
    }

    /** Every invocation so far: {"event": ..., "signatureOk": ...}. */
    public List<JsonNode> invocations() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(log)) {
            return out;
        }
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                try {
                    out.add(JSON.readTree(line));
                } catch (IOException partialLine) {
                    break; // the endpoint is still writing it
                }
            }
        }
        return out;
    }

    /** The records of {@code queueArn}, in arrival order. */
    public List<JsonNode> recordsFor(String queueArn) {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (JsonNode inv : invocations()) {
                for (JsonNode r : inv.path("event").path("Records")) {
                    if (r.path("eventSourceARN").asText().equals(queueArn)) {
                        out.add(r);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
