package io.hikyaku.servicelog;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A service log kept in a {@link Store}: record {@code n} is the META key {@code hikyaku.svc/<service>/<n>}
 * (n zero-padded to 20 digits, so key order is append order). In cluster mode the store is the replicated one,
 * so an append is a Raft entry like the engine's own batches: it returns only once a majority committed it, and
 * every node's store holds the same records. Replay scans the service's prefix.
 *
 * <p>The next number is found at {@link #replay} (the last key + 1): a cluster's new leader replays before it
 * writes, so it continues exactly after the committed records.
 */
public final class StoreServiceLog implements ServiceLog {

    /** The prefix of every service's records in META (the engine's own META keys never start so). */
    public static final String PREFIX = "hikyaku.svc/";

    private final Store store;
    private final byte[] prefix;
    private final long timeoutMillis;
    private long next = -1;

    /** @param timeoutMillis how long an append waits for the store (a cluster: the commit) before it fails */
    public StoreServiceLog(Store store, String service, long timeoutMillis) {
        if (service.isEmpty() || service.contains("/")) {
            throw new IllegalArgumentException("a service name without '/': " + service);
        }
        this.store = store;
        this.prefix = (PREFIX + service + "/").getBytes(StandardCharsets.UTF_8);
        this.timeoutMillis = timeoutMillis;
    }

    /** The META key of record {@code seq} of {@code service}. */
    static byte[] key(byte[] prefix, long seq) {
        byte[] digits = String.format("%020d", seq).getBytes(StandardCharsets.US_ASCII);
        byte[] key = new byte[prefix.length + digits.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(digits, 0, key, prefix.length, digits.length);
        return key;
    }

    @Override
    public synchronized List<byte[]> replay() {
        List<byte[]> records = new ArrayList<>();
        long[] last = {0};
        store.scan(Keyspace.META, prefix, (k, v) -> {
            records.add(v);
            last[0] = Long.parseLong(new String(k, prefix.length, k.length - prefix.length, StandardCharsets.US_ASCII));
            return true;
        });
        next = last[0] + 1;
        return records;
    }

    @Override
    public synchronized void appendAll(List<byte[]> records) throws IOException {
        if (records.isEmpty()) {
            return;
        }
        if (next < 0) {
            throw new IOException("the service log " + new String(prefix, StandardCharsets.UTF_8) + " is not open (replay it first)");
        }
        StoreBatch batch = new StoreBatch();
        long seq = next;
        for (byte[] r : records) {
            if (r.length == 0 || r.length > FileServiceLog.MAX_RECORD_BYTES) {
                throw new IOException("a service log record of " + r.length + " bytes (1 to "
                        + FileServiceLog.MAX_RECORD_BYTES + " allowed)");
            }
            batch.put(Keyspace.META, key(prefix, seq++), r);
        }
        try {
            store.write(batch).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            next = -1; // the store may or may not hold it (fail-stop): replay before writing again
            throw new IOException("the service log could not be written: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            next = -1;
            throw new IOException("the service log write was not committed within " + timeoutMillis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            next = -1;
            throw new IOException("interrupted while the service log was written", e);
        }
        next = seq;
    }

    @Override
    public void close() {
        // the store belongs to the server
    }
}
