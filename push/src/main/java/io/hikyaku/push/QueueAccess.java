package io.hikyaku.push;

/**
 * Whether an account may have a mapping poll a queue. Pollers call the SQS service in-process, past the
 * server's authorization step, so the server hands push delivery its access rule for queues: the
 * mapping's account must be allowed to receive from and delete in its queue, as its own SQS calls would be.
 */
@FunctionalInterface
public interface QueueAccess {

    /** Every account may use every queue (authentication off: accounts only name queues). */
    QueueAccess ANY = (account, queue) -> true;

    /** Only a queue of the account itself (authentication on; queue policies' cross-account grants are not applied here yet). */
    QueueAccess OWN_ACCOUNT = (account, queue) -> account.equals(queue.account());

    boolean allows(String account, QueueArn queue);
}
