package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EntryCodecTest {

    @Test
    void roundTripsBatchesInOrder() {
        StoreBatch a = new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1, 2}, new byte[] {9})
                .deleteOnceWritten(Keyspace.DEDUP, new byte[] {(byte) 0xff});
        StoreBatch b = new StoreBatch().delete(Keyspace.HOUSEKEEPING, new byte[0]).put(Keyspace.META, new byte[] {7}, new byte[0]);
        byte[] entry = EntryCodec.encode(List.of(a, b));
        assertThat(entry).hasSize(1 + 4 + EntryCodec.size(a) + EntryCodec.size(b));
        List<StoreBatch> decoded = EntryCodec.decode(ByteBuffer.wrap(entry));
        assertThat(decoded).hasSize(2);
        assertThat(describe(decoded.get(0))).isEqualTo(describe(a));
        assertThat(describe(decoded.get(1))).isEqualTo(describe(b));
    }

    @Test
    void refusesBytesThatAreNotAnEntry() {
        byte[] entry = EntryCodec.encode(List.of(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1}, new byte[] {2})));
        assertThatThrownBy(() -> EntryCodec.decode(ByteBuffer.wrap(Arrays.copyOf(entry, entry.length - 1))))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] other = entry.clone();
        other[0] = 9;
        assertThatThrownBy(() -> EntryCodec.decode(ByteBuffer.wrap(other))).hasMessageContaining("version 9");
        assertThatThrownBy(() -> EntryCodec.decode(ByteBuffer.wrap(Arrays.copyOf(entry, entry.length + 1))))
                .hasMessageContaining("after the last batch");
    }

    private static String describe(StoreBatch b) {
        StringBuilder s = new StringBuilder();
        for (StoreBatch.Op op : b.ops()) {
            s.append(op.kind()).append(' ').append(op.space()).append(' ').append(Arrays.toString(op.key()))
                    .append(' ').append(op.value() == null ? "-" : Arrays.toString(op.value())).append(';');
        }
        return s.toString();
    }
}
