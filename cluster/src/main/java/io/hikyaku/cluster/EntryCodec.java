package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of one Raft entry: the store batches it carries, in write order.
 * <pre>
 * version(1) = 1, batchCount(i32), then per batch: opCount(i32), then per op:
 *   kind(1: 0 put, 1 delete, 2 delete-once-written) keyspace(1: ordinal) keyLength(i32) key
 *   valueLength(i32, -1 for deletes) value
 * </pre>
 * Keyspace ordinals are part of the format: a new keyspace goes at the end of {@link Keyspace}.
 */
final class EntryCodec {

    static final byte VERSION = 1;
    private static final Keyspace[] SPACES = Keyspace.values();
    private static final StoreBatch.Kind[] KINDS = StoreBatch.Kind.values();

    private EntryCodec() {}

    /** Bytes {@code batch} takes in an entry. */
    static int size(StoreBatch batch) {
        long size = 4;
        for (StoreBatch.Op op : batch.ops()) {
            size += 1 + 1 + 4 + op.key().length + 4 + (op.value() == null ? 0 : op.value().length);
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("store batch of " + size + " bytes is too big to replicate");
        }
        return (int) size;
    }

    static byte[] encode(List<StoreBatch> batches) {
        long total = 1 + 4;
        for (StoreBatch b : batches) {
            total += size(b);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("entry of " + total + " bytes is too big to replicate");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total);
        out.put(VERSION).putInt(batches.size());
        for (StoreBatch b : batches) {
            out.putInt(b.size());
            for (StoreBatch.Op op : b.ops()) {
                out.put((byte) op.kind().ordinal()).put((byte) op.space().ordinal());
                out.putInt(op.key().length).put(op.key());
                if (op.value() == null) {
                    out.putInt(-1);
                } else {
                    out.putInt(op.value().length).put(op.value());
                }
            }
        }
        return out.array();
    }

    /** The batches of an entry; IllegalArgumentException if the bytes are not an entry of this format. */
    static List<StoreBatch> decode(ByteBuffer in) {
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown entry format version " + version);
            }
            int count = in.getInt();
            if (count < 0) {
                throw new IllegalArgumentException("negative batch count " + count);
            }
            List<StoreBatch> batches = new ArrayList<>(Math.min(count, 4096));
            for (int i = 0; i < count; i++) {
                int ops = in.getInt();
                if (ops < 0) {
                    throw new IllegalArgumentException("negative op count " + ops);
                }
                StoreBatch b = new StoreBatch();
                for (int j = 0; j < ops; j++) {
                    int kind = in.get();
                    int space = in.get();
                    if (kind < 0 || kind >= KINDS.length || space < 0 || space >= SPACES.length) {
                        throw new IllegalArgumentException("unknown op kind " + kind + " or keyspace " + space);
                    }
                    byte[] key = bytes(in, in.getInt());
                    int valueLength = in.getInt();
                    byte[] value = valueLength == -1 ? null : bytes(in, valueLength);
                    switch (KINDS[kind]) {
                        case PUT -> {
                            if (value == null) {
                                throw new IllegalArgumentException("put without a value");
                            }
                            b.put(SPACES[space], key, value);
                        }
                        case DELETE -> b.delete(SPACES[space], key);
                        case DELETE_ONCE_WRITTEN -> b.deleteOnceWritten(SPACES[space], key);
                    }
                }
                batches.add(b);
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the last batch");
            }
            return batches;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("entry ends early", e);
        }
    }

    private static byte[] bytes(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("bad length " + length);
        }
        byte[] b = new byte[length];
        in.get(b);
        return b;
    }
}
