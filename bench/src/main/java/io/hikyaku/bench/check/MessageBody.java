package io.hikyaku.bench.check;

/**
 * The bench message body: "seq:group:groupSeq:sentNanos:" padded with 'x' to a fixed size.
 * seq is unique per run (loss/duplicate check), groupSeq orders messages within a FIFO group,
 * sentNanos is System.nanoTime() at send time (end-to-end latency; same process, same clock).
 */
public record MessageBody(long seq, int group, long groupSeq, long sentNanos) {
    private static final String PADDING = "x".repeat(1024);

    public String encode(int size) {
        StringBuilder sb = new StringBuilder(Math.max(size, 64));
        sb.append(seq).append(':').append(group).append(':').append(groupSeq).append(':').append(sentNanos).append(':');
        while (sb.length() < size) {
            sb.append(PADDING, 0, Math.min(PADDING.length(), size - sb.length()));
        }
        return sb.toString();
    }

    /** Parses a body made by encode; null if the body is not one of ours. */
    public static MessageBody decode(String body) {
        if (body == null) {
            return null;
        }
        try {
            int a = body.indexOf(':');
            int b = body.indexOf(':', a + 1);
            int c = body.indexOf(':', b + 1);
            int d = body.indexOf(':', c + 1);
            if (a < 0 || b < 0 || c < 0 || d < 0) {
                return null;
            }
            return new MessageBody(Long.parseLong(body, 0, a, 10), Integer.parseInt(body, a + 1, b, 10),
                    Long.parseLong(body, b + 1, c, 10), Long.parseLong(body, c + 1, d, 10));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
