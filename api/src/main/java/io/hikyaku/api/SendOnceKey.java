package io.hikyaku.api;

/**
 * What makes an in-process SendMessage a send-once (engine command {@code SendOnce}): the message is
 * stored unless {@code source} was already sent at {@code position} (or later) of {@code generation}.
 * The Scheduler's fires: the schedule ARN, the schedule's creation number, the scheduled time.
 */
public record SendOnceKey(String source, long generation, long position) { }
