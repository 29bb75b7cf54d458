package io.hikyaku.engine;

/**
 * The record a {@code SendOnce} command leaves in HOUSEKEEPING ({@link Keys#sentOnce}), in the batch of the
 * message it stored: which generation of the source was sent at which position, and the message's id
 * (the answer to a repeat). Read with one point read per send-once, never at load.
 */
record SentOnce(long generation, long position, String messageId) {

    private static final int VERSION = 1;

    /** Whether a send at {@code position} of {@code generation} already happened. */
    boolean covers(long generation, long position) {
        return this.generation == generation && this.position >= position;
    }

    byte[] encode() {
        return Enc.version(VERSION, 17 + Enc.strSize(messageId)).i64(generation).i64(position).str(messageId).done();
    }

    static SentOnce decode(byte[] value) {
        Dec d = Dec.of(value, VERSION, "send-once record");
        return new SentOnce(d.i64(), d.i64(), d.str());
    }
}
