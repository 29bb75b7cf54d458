package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP outbox on disk ({@code <data dir>/sns/outbox.log}): one JSON line per accepted delivery, written and
 * forced before the publish (or subscribe) answers, and one line when it is finished (delivered, parked in the DLQ
 * or dropped). At start the deliveries without a finish line are sent again (their retry schedule starts over), and
 * the file is rewritten with only those. A torn last line (a crash mid-write, never acknowledged) is ignored. A
 * finish line lost in a crash means the delivery is sent again: at-least-once across restarts. The file is also
 * rewritten when it has grown past {@link #COMPACT_AFTER_LINES} lines. {@link #memory()} keeps nothing.
 */
class OutboxLog implements AutoCloseable {

    static final String FILE = "outbox.log";
    static final int COMPACT_AFTER_LINES = 100_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private FileChannel channel;
    private final Map<Long, String> pending = new LinkedHashMap<>();
    private long nextId;
    private long lines;

    private OutboxLog(Path file) {
        this.file = file;
    }

    /** Keeps nothing: {@code --storage memory}. */
    static OutboxLog memory() {
        return new OutboxLog(null) {
            @Override
            synchronized long add(HttpDelivery d) {
                return 0;
            }

            @Override
            synchronized void finish(long id) {
            }
        };
    }

    /** Opens (creating) the log in {@code dir}; {@link #recovered()} then holds what was not finished. */
    static OutboxLog open(Path dir) throws IOException {
        Files.createDirectories(dir);
        OutboxLog log = new OutboxLog(dir.resolve(FILE));
        if (Files.exists(log.file)) {
            List<String> all = Files.readAllLines(log.file, StandardCharsets.UTF_8);
            for (int i = 0; i < all.size(); i++) {
                String line = all.get(i);
                JsonNode n;
                try {
                    n = JSON.readTree(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    if (i == all.size() - 1) {
                        break; // torn last line: never acknowledged
                    }
                    throw new IOException("SNS outbox " + log.file + " line " + (i + 1) + " is damaged");
                }
                long id = n.path("id").asLong();
                if (n.has("delivery")) {
                    log.pending.put(id, n.get("delivery").toString());
                } else {
                    log.pending.remove(id);
                }
                log.nextId = Math.max(log.nextId, id + 1);
            }
        }
        log.rewrite();
        return log;
    }

    /** The deliveries a previous run accepted and did not finish, with their ids. */
    synchronized Map<Long, HttpDelivery> recovered() throws IOException {
        Map<Long, HttpDelivery> out = new LinkedHashMap<>();
        for (Map.Entry<Long, String> e : pending.entrySet()) {
            out.put(e.getKey(), fromJson(JSON.readTree(e.getValue())));
        }
        return out;
    }

    /** Writes and forces the delivery; returns its id. */
    synchronized long add(HttpDelivery d) throws IOException {
        long id = nextId++;
        String delivery = toJson(d).toString();
        append("{\"id\":" + id + ",\"delivery\":" + delivery + "}\n", true);
        pending.put(id, delivery);
        return id;
    }

    /** Marks the delivery finished (not forced: a lost mark means one more delivery after a crash). */
    synchronized void finish(long id) throws IOException {
        if (pending.remove(id) == null) {
            return;
        }
        append("{\"id\":" + id + "}\n", false);
        if (lines > COMPACT_AFTER_LINES) {
            rewrite();
        }
    }

    private void append(String line, boolean force) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            channel.write(b);
        }
        if (force) {
            channel.force(false);
        }
        lines++;
    }

    /** Replaces the file with the pending deliveries only (atomically), and appends after them. */
    private void rewrite() throws IOException {
        if (channel != null) {
            channel.close();
        }
        Path tmp = file.resolveSibling(FILE + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            for (Map.Entry<Long, String> e : pending.entrySet()) {
                out.write(ByteBuffer.wrap(("{\"id\":" + e.getKey() + ",\"delivery\":" + e.getValue() + "}\n")
                        .getBytes(StandardCharsets.UTF_8)));
            }
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        lines = pending.size();
    }

    private static ObjectNode toJson(HttpDelivery d) {
        ObjectNode n = JSON.createObjectNode().put("subscriptionArn", d.subscriptionArn()).put("topicArn", d.topicArn())
                .put("endpoint", d.endpoint()).put("messageType", d.messageType()).put("messageId", d.messageId())
                .put("body", Base64.getEncoder().encodeToString(d.body()));
        ObjectNode h = n.putObject("headers");
        d.headers().forEach(h::put);
        n.set("policy", JSON.valueToTree(d.policy()));
        return n;
    }

    private static HttpDelivery fromJson(JsonNode n) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        n.path("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
        return new HttpDelivery(n.path("subscriptionArn").asText(), n.path("topicArn").asText(),
                n.path("endpoint").asText(), n.path("messageType").asText(), n.path("messageId").asText(), headers,
                Base64.getDecoder().decode(n.path("body").asText()), JSON.treeToValue(n.path("policy"), HttpRetryPolicy.class));
    }

    /** The ids in order, for tests. */
    synchronized List<Long> pendingIds() {
        return new ArrayList<>(pending.keySet());
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
