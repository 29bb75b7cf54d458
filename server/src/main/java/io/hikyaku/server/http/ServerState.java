package io.hikyaku.server.http;

import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.TimeUnit;

/** What the server shares with its connections: whether it still serves, and what is in flight. */
public final class ServerState {

    private final ChannelGroup channels = new DefaultChannelGroup("hikyaku-connections", GlobalEventExecutor.INSTANCE);
    private volatile boolean serving = true;
    private int inFlight;

    public boolean serving() {
        return serving;
    }

    public void stopServing() {
        serving = false;
    }

    public ChannelGroup channels() {
        return channels;
    }

    synchronized void requestStarted() {
        inFlight++;
    }

    synchronized void requestFinished() {
        inFlight--;
        notifyAll();
    }

    public synchronized int inFlight() {
        return inFlight;
    }

    /** Waits until no request is in flight, or the timeout passes. Returns true when idle. */
    public synchronized boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (inFlight > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
