package io.hikyaku.policy;

/** A statement's Effect. */
public enum Effect {
    ALLOW, DENY
}
