package io.hikyaku.bench.jmh;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.store.Store;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** An engine on a stub store with one queue, plus cheap unique ids and a synthetic clock. */
final class EngineFixture {
    static final String ACCOUNT = "000000000000";
    static final String BODY = "x".repeat(256);

    final QueueEngine engine;
    final QueueRef queue;
    private long ids;
    private long nonce = 0x9E3779B97F4A7C15L;
    /** Engine time in ms; it advances 1 ms every 1024 commands so nothing ever waits on it. */
    private long commands;
    private static final long START = 1_767_225_600_000L;

    EngineFixture(String name, Map<String, String> attributes) {
        this(name, attributes, new StubStore());
    }

    EngineFixture(String name, Map<String, String> attributes, Store store) {
        engine = new QueueEngine(store, "us-east-1");
        queue = new QueueRef(ACCOUNT, name);
        engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, name, AttributeUpdate.of(attributes), null, now()))).durable();
    }

    long now() {
        return START + (commands++ >> 10);
    }

    String messageId() {
        return new UUID(0x4000L, ++ids).toString();
    }

    long nonce() {
        nonce = nonce * 6364136223846793005L + 1442695040888963407L;
        return nonce;
    }

    void send(String body, String group) {
        String dedup = group == null ? null : messageId();
        engine.apply(new Command.SendMessage(queue, new SendMessage(body, null, null, null, group, dedup, "bench", messageId()), now())).durable();
    }

    List<ReceivedMessage> receive(int max, Integer visibility) {
        return engine.apply(new Command.ReceiveMessage(queue, new ReceiveMessages(max, visibility, null, nonce(), now()))).durable().value();
    }
}
