package io.hikyaku.server.storage;

/**
 * The store the server runs on.
 *
 * @param health  the store as the service sees it, watching write failures
 * @param backups online backups, or null when the store keeps nothing to back up (memory)
 */
public record OpenedStore(StoreHealth health, Backups backups) {}
