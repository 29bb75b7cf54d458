package io.hikyaku.server;

/**
 * Whether Amazon SQS's 60-second waits apply: after PurgeQueue (PurgeQueueInProgress), after
 * DeleteQueue before the name can be used again (QueueDeletedRecently), and while a DeduplicationScope
 * change propagates.
 */
public enum Cooldowns {
    /** As Amazon SQS does. The default. */
    AWS,
    /** No waits: a deviation from SQS for test suites that purge and recreate queues between tests. */
    OFF
}
