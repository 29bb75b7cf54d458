package io.hikyaku.engine;

/** What applying {@link io.hikyaku.engine.command.Command.SealMessage} did to the message it names. */
public enum SealOutcome {
    /** Its plaintext body and attributes were replaced by the sealed body. */
    SEALED,
    /** Nothing: its stored body was sealed already (sent to an SSE queue, or re-sealed before). */
    ALREADY_SEALED,
    /** Nothing: no such message any more (deleted, expired, purged, moved, or its queue deleted). */
    GONE
}
