package io.hikyaku.protocol;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable, unsynchronized byte sink that is reused for one response after another on the same
 * thread: no per-response segments to allocate and merge, one exact-size copy at the end. A buffer
 * that grew past {@link #KEPT_BYTES} for a large response is let go, so a thread keeps little.
 */
final class ResponseBuffer extends OutputStream {

    static final int INITIAL_BYTES = 8 * 1024;
    static final int KEPT_BYTES = 1024 * 1024;

    private byte[] buf = new byte[INITIAL_BYTES];
    private int count;

    /** Empties the buffer for the next response. */
    void reset() {
        if (buf.length > KEPT_BYTES) {
            buf = new byte[INITIAL_BYTES];
        }
        count = 0;
    }

    @Override
    public void write(int b) {
        room(1);
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    /** Makes room for {@code n} more bytes and returns the array to write them into, from {@link #size()}. */
    byte[] reserve(int n) {
        room(n);
        return buf;
    }

    int size() {
        return count;
    }

    /** After writing into {@link #reserve}'s array: the new size. */
    void size(int newSize) {
        count = newSize;
    }

    private void room(int n) {
        if (count + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + n));
        }
    }

    /** What was written since the last {@link #reset()}. */
    byte[] toByteArray() {
        return Arrays.copyOf(buf, count);
    }

    int capacity() {
        return buf.length;
    }
}
