package io.hikyaku.identity;

/** How requests are authenticated. */
public enum AuthMode {
    /** Nothing is verified: a 12-digit access key id selects that account (local development, tests). */
    NONE,
    /** Every signed request is verified with SigV4; unsigned requests are the anonymous principal. */
    SIGV4
}
