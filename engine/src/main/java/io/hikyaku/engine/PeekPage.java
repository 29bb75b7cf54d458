package io.hikyaku.engine;

import java.util.List;

/**
 * One page of the read-only peek: visible messages in sequence order (their receipt handles are
 * null: a peek delivers nothing), and the sequence number to continue from, or null at the end.
 */
public record PeekPage(List<ReceivedMessage> messages, Long nextSeq) {}
