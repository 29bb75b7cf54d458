package io.hikyaku.engine.command;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.RedriveAllowPolicy;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.VisibilityChange;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a {@link Command} (the journal's records). Layout: a version byte
 * ({@link #VERSION}), a tag byte naming the record type (the {@code T_} constants: never reuse or
 * renumber one), then the fields in record order, big-endian. A string is its UTF-8 length as an int
 * (-1 = null) and the bytes; a map or list its size (-1 = null) then its entries in iteration order
 * (decoded into insertion-ordered maps, so the order the engine sees is kept); a nullable Integer a
 * presence byte then the int. Decoding checks every length against the bytes left and rejects
 * unknown versions and tags with {@link IllegalArgumentException}, so a damaged record is named as
 * such rather than read as something else.
 *
 * <p>Not encoded: {@link SendMessage#bodyDigest()} (an optional cache of the api's MD5, not state;
 * decoded as null).
 */
public final class CommandCodec {

    public static final int VERSION = 1;

    static final int T_CREATE_QUEUE = 1;
    static final int T_DELETE_QUEUE = 2;
    static final int T_PURGE_QUEUE = 3;
    static final int T_SET_ATTRIBUTES = 4;
    static final int T_TAG = 5;
    static final int T_UNTAG = 6;
    static final int T_ADD_PERMISSION = 7;
    static final int T_REMOVE_PERMISSION = 8;
    static final int T_SEND = 9;
    static final int T_SEND_BATCH = 10;
    static final int T_RECEIVE = 11;
    static final int T_DELETE = 12;
    static final int T_DELETE_BATCH = 13;
    static final int T_CHANGE_VISIBILITY = 14;
    static final int T_CHANGE_VISIBILITY_BATCH = 15;
    static final int T_START_MOVE_TASK = 16;
    static final int T_CANCEL_MOVE_TASK = 17;
    static final int T_TICK = 18;
    static final int T_ADVANCE = 19;
    static final int T_SEND_ONCE = 20;
    static final int T_SEAL_MESSAGE = 21;

    private CommandCodec() {
    }

    public static byte[] encode(Command<?> command) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try {
            Writer w = new Writer(new DataOutputStream(bytes));
            w.out.writeByte(VERSION);
            w.command(command);
            w.out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    public static Command<?> decode(byte[] record) {
        ByteBuffer in = ByteBuffer.wrap(record);
        try {
            int version = in.get() & 0xFF;
            if (version != VERSION) {
                throw new IllegalArgumentException("command record version " + version + " is not known (this build reads "
                        + VERSION + ")");
            }
            Command c = new Reader(in).command();
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("command record has " + in.remaining() + " bytes after its end");
            }
            return c;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("command record is cut short", e);
        }
    }

    private static final class Writer {
        final DataOutputStream out;

        Writer(DataOutputStream out) {
            this.out = out;
        }

        void command(Command<?> command) throws IOException {
            if (command instanceof Command.SendMessage c) {
                tag(T_SEND);
                queue(c.queue());
                message(c.message());
                out.writeLong(c.now());
            } else if (command instanceof Command.SendOnce c) {
                tag(T_SEND_ONCE);
                queue(c.queue());
                message(c.message());
                str(c.source());
                out.writeLong(c.generation());
                out.writeLong(c.position());
                out.writeLong(c.now());
            } else if (command instanceof Command.ReceiveMessage c) {
                tag(T_RECEIVE);
                queue(c.queue());
                ReceiveMessages r = c.receive();
                out.writeInt(r.maxMessages());
                integer(r.visibilityTimeout());
                str(r.receiveRequestAttemptId());
                out.writeLong(r.nonce());
                out.writeLong(r.now());
            } else if (command instanceof Command.DeleteMessage c) {
                tag(T_DELETE);
                queue(c.queue());
                str(c.receiptHandle());
                out.writeLong(c.now());
            } else if (command instanceof Command.Tick c) {
                tag(T_TICK);
                out.writeLong(c.now());
            } else if (command instanceof Command.Advance c) {
                tag(T_ADVANCE);
                queue(c.queue());
                out.writeLong(c.now());
            } else if (command instanceof Command.SendMessageBatch c) {
                tag(T_SEND_BATCH);
                queue(c.queue());
                size(c.messages());
                for (SendMessage m : c.messages()) {
                    message(m);
                }
                out.writeLong(c.now());
            } else if (command instanceof Command.DeleteMessageBatch c) {
                tag(T_DELETE_BATCH);
                queue(c.queue());
                strings(c.receiptHandles());
                out.writeLong(c.now());
            } else if (command instanceof Command.ChangeVisibility c) {
                tag(T_CHANGE_VISIBILITY);
                queue(c.queue());
                str(c.receiptHandle());
                out.writeInt(c.visibilityTimeout());
                out.writeLong(c.now());
            } else if (command instanceof Command.ChangeVisibilityBatch c) {
                tag(T_CHANGE_VISIBILITY_BATCH);
                queue(c.queue());
                size(c.changes());
                for (VisibilityChange v : c.changes()) {
                    str(v.receiptHandle());
                    out.writeInt(v.visibilityTimeout());
                }
                out.writeLong(c.now());
            } else if (command instanceof Command.CreateQueue c) {
                tag(T_CREATE_QUEUE);
                io.hikyaku.engine.CreateQueue q = c.create();
                str(q.accountId());
                str(q.region());
                str(q.name());
                attributes(q.attributes());
                map(q.tags());
                out.writeLong(q.now());
            } else if (command instanceof Command.DeleteQueue c) {
                tag(T_DELETE_QUEUE);
                queue(c.queue());
                out.writeLong(c.now());
            } else if (command instanceof Command.PurgeQueue c) {
                tag(T_PURGE_QUEUE);
                queue(c.queue());
                out.writeLong(c.now());
            } else if (command instanceof Command.SetQueueAttributes c) {
                tag(T_SET_ATTRIBUTES);
                queue(c.queue());
                attributes(c.attributes());
                out.writeLong(c.now());
            } else if (command instanceof Command.TagQueue c) {
                tag(T_TAG);
                queue(c.queue());
                map(c.tags());
                out.writeLong(c.now());
            } else if (command instanceof Command.UntagQueue c) {
                tag(T_UNTAG);
                queue(c.queue());
                strings(c.tagKeys());
                out.writeLong(c.now());
            } else if (command instanceof Command.AddPermission c) {
                tag(T_ADD_PERMISSION);
                queue(c.queue());
                str(c.label());
                strings(c.accountIds());
                strings(c.actions());
                out.writeLong(c.now());
            } else if (command instanceof Command.RemovePermission c) {
                tag(T_REMOVE_PERMISSION);
                queue(c.queue());
                str(c.label());
                out.writeLong(c.now());
            } else if (command instanceof Command.StartMoveTask c) {
                tag(T_START_MOVE_TASK);
                io.hikyaku.engine.StartMoveTask s = c.start();
                str(s.sourceArn());
                str(s.destinationArn());
                integer(s.maxMessagesPerSecond());
                str(s.taskId());
                out.writeLong(s.now());
            } else if (command instanceof Command.CancelMoveTask c) {
                tag(T_CANCEL_MOVE_TASK);
                str(c.taskHandle());
                out.writeLong(c.now());
            } else if (command instanceof Command.SealMessage c) {
                tag(T_SEAL_MESSAGE);
                queue(c.queue());
                out.writeLong(c.seq());
                str(c.messageId());
                str(c.sealedBody());
                out.writeLong(c.now());
            } else {
                throw new IllegalArgumentException("no encoding for " + command.getClass().getName());
            }
        }

        void tag(int tag) throws IOException {
            out.writeByte(tag);
        }

        void queue(QueueRef q) throws IOException {
            str(q.accountId());
            str(q.name());
        }

        void message(SendMessage m) throws IOException {
            str(m.body());
            if (m.attributes() == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(m.attributes().size());
                for (Map.Entry<String, MessageAttribute> e : m.attributes().entrySet()) {
                    str(e.getKey());
                    MessageAttribute a = e.getValue();
                    str(a.dataType());
                    str(a.stringValue());
                    bytes(a.binaryValue());
                }
            }
            str(m.awsTraceHeader());
            integer(m.delaySeconds());
            str(m.groupId());
            str(m.deduplicationId());
            str(m.senderId());
            str(m.messageId());
        }

        void attributes(AttributeUpdate u) throws IOException {
            if (u == null) {
                out.writeByte(0);
                return;
            }
            out.writeByte(1);
            map(u.values());
            RedrivePolicy rp = u.redrivePolicy();
            out.writeByte(rp == null ? 0 : 1);
            if (rp != null) {
                str(rp.deadLetterTargetArn());
                integer(rp.maxReceiveCount());
            }
            RedriveAllowPolicy rap = u.redriveAllowPolicy();
            out.writeByte(rap == null ? 0 : 1);
            if (rap != null) {
                str(rap.redrivePermission());
                strings(rap.sourceQueueArns());
            }
        }

        void map(Map<String, String> m) throws IOException {
            if (m == null) {
                out.writeInt(-1);
                return;
            }
            out.writeInt(m.size());
            for (Map.Entry<String, String> e : m.entrySet()) {
                str(e.getKey());
                str(e.getValue());
            }
        }

        void strings(List<String> list) throws IOException {
            size(list);
            if (list != null) {
                for (String s : list) {
                    str(s);
                }
            }
        }

        void size(List<?> list) throws IOException {
            out.writeInt(list == null ? -1 : list.size());
        }

        void integer(Integer v) throws IOException {
            out.writeByte(v == null ? 0 : 1);
            if (v != null) {
                out.writeInt(v);
            }
        }

        void str(String s) throws IOException {
            bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
        }

        void bytes(byte[] b) throws IOException {
            if (b == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(b.length);
                out.write(b);
            }
        }
    }

    private static final class Reader {
        final ByteBuffer in;

        Reader(ByteBuffer in) {
            this.in = in;
        }

        Command<?> command() {
            int tag = in.get() & 0xFF;
            switch (tag) {
                case T_SEND:
                    return new Command.SendMessage(queue(), message(), in.getLong());
                case T_SEND_ONCE: {
                    QueueRef q = queue();
                    SendMessage m = message();
                    String source = str();
                    return new Command.SendOnce(q, m, source, in.getLong(), in.getLong(), in.getLong());
                }
                case T_RECEIVE: {
                    QueueRef q = queue();
                    int max = in.getInt();
                    Integer vt = integer();
                    String attempt = str();
                    long nonce = in.getLong();
                    return new Command.ReceiveMessage(q, new ReceiveMessages(max, vt, attempt, nonce, in.getLong()));
                }
                case T_DELETE:
                    return new Command.DeleteMessage(queue(), str(), in.getLong());
                case T_TICK:
                    return new Command.Tick(in.getLong());
                case T_ADVANCE:
                    return new Command.Advance(queue(), in.getLong());
                case T_SEND_BATCH: {
                    QueueRef q = queue();
                    int n = size(4);
                    List<SendMessage> messages = n < 0 ? null : new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        messages.add(message());
                    }
                    return new Command.SendMessageBatch(q, messages, in.getLong());
                }
                case T_DELETE_BATCH:
                    return new Command.DeleteMessageBatch(queue(), strings(), in.getLong());
                case T_CHANGE_VISIBILITY:
                    return new Command.ChangeVisibility(queue(), str(), in.getInt(), in.getLong());
                case T_CHANGE_VISIBILITY_BATCH: {
                    QueueRef q = queue();
                    int n = size(8);
                    List<VisibilityChange> changes = n < 0 ? null : new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        changes.add(new VisibilityChange(str(), in.getInt()));
                    }
                    return new Command.ChangeVisibilityBatch(q, changes, in.getLong());
                }
                case T_CREATE_QUEUE:
                    return new Command.CreateQueue(new io.hikyaku.engine.CreateQueue(str(), str(), str(), attributes(),
                            map(), in.getLong()));
                case T_DELETE_QUEUE:
                    return new Command.DeleteQueue(queue(), in.getLong());
                case T_PURGE_QUEUE:
                    return new Command.PurgeQueue(queue(), in.getLong());
                case T_SET_ATTRIBUTES:
                    return new Command.SetQueueAttributes(queue(), attributes(), in.getLong());
                case T_TAG:
                    return new Command.TagQueue(queue(), map(), in.getLong());
                case T_UNTAG:
                    return new Command.UntagQueue(queue(), strings(), in.getLong());
                case T_ADD_PERMISSION:
                    return new Command.AddPermission(queue(), str(), strings(), strings(), in.getLong());
                case T_REMOVE_PERMISSION:
                    return new Command.RemovePermission(queue(), str(), in.getLong());
                case T_START_MOVE_TASK:
                    return new Command.StartMoveTask(new io.hikyaku.engine.StartMoveTask(str(), str(), integer(), str(),
                            in.getLong()));
                case T_CANCEL_MOVE_TASK:
                    return new Command.CancelMoveTask(str(), in.getLong());
                case T_SEAL_MESSAGE:
                    return new Command.SealMessage(queue(), in.getLong(), str(), str(), in.getLong());
                default:
                    throw new IllegalArgumentException("command record has an unknown type tag " + tag);
            }
        }

        QueueRef queue() {
            return new QueueRef(str(), str());
        }

        SendMessage message() {
            String body = str();
            int n = size(12);
            Map<String, MessageAttribute> attributes = n < 0 ? null : new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                String name = str();
                attributes.put(name, new MessageAttribute(str(), str(), bytes()));
            }
            return new SendMessage(body, attributes, str(), integer(), str(), str(), str(), str(), null);
        }

        AttributeUpdate attributes() {
            if (in.get() == 0) {
                return null;
            }
            Map<String, String> values = map();
            RedrivePolicy rp = in.get() == 0 ? null : new RedrivePolicy(str(), integer());
            RedriveAllowPolicy rap = in.get() == 0 ? null : new RedriveAllowPolicy(str(), strings());
            return new AttributeUpdate(values, rp, rap);
        }

        Map<String, String> map() {
            int n = size(8);
            if (n < 0) {
                return null;
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                String k = str();
                m.put(k, str());
            }
            return m;
        }

        List<String> strings() {
            int n = size(4);
            if (n < 0) {
                return null;
            }
            List<String> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(str());
            }
            return list;
        }

        /** A count, -1 = null; each entry takes at least {@code minEntryBytes}, so a count the bytes left cannot hold is damage. */
        int size(int minEntryBytes) {
            int n = in.getInt();
            if (n < -1 || (n > 0 && (long) n * minEntryBytes > in.remaining())) {
                throw new IllegalArgumentException("command record has a count of " + n + " with " + in.remaining()
                        + " bytes left");
            }
            return n;
        }

        Integer integer() {
            return in.get() == 0 ? null : in.getInt();
        }

        String str() {
            byte[] b = bytes();
            return b == null ? null : new String(b, StandardCharsets.UTF_8);
        }

        byte[] bytes() {
            int n = in.getInt();
            if (n == -1) {
                return null;
            }
            if (n < 0 || n > in.remaining()) {
                throw new IllegalArgumentException("command record has a length of " + n + " with " + in.remaining()
                        + " bytes left");
            }
            byte[] b = new byte[n];
            in.get(b);
            return b;
        }
    }
}
