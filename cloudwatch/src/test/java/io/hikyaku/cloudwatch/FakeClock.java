package io.hikyaku.cloudwatch;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves. */
final class FakeClock extends Clock {
    long millis;

    FakeClock(long millis) {
        this.millis = millis;
    }

    void advanceSeconds(long s) {
        millis += s * 1000;
    }

    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { return this; }
    @Override public Instant instant() { return Instant.ofEpochMilli(millis); }
    @Override public long millis() { return millis; }
}
