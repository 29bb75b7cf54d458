package io.hikyaku.server.http;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import java.util.Date;

/**
 * The HTTP {@code Date} header value, formatted once per second of the clock instead of once per
 * response (formatting goes through a GregorianCalendar). Thread-safe: the cached second and its
 * text are swapped together as one immutable object.
 */
final class DateHeader {

    private record Cached(long second, AsciiString text) {}

    private static volatile Cached cached = new Cached(Long.MIN_VALUE, AsciiString.EMPTY_STRING);

    private DateHeader() {}

    /** The header value for the epoch millis {@code millis} (second precision, as HTTP dates are). */
    static AsciiString of(long millis) {
        long second = Math.floorDiv(millis, 1000L);
        Cached c = cached;
        if (c.second != second) {
            c = new Cached(second, new AsciiString(DateFormatter.format(new Date(second * 1000L))));
            cached = c;
        }
        return c.text;
    }
}
