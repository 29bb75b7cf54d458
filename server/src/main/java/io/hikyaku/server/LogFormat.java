package io.hikyaku.server;

/** How log lines are written: plain text, or one JSON object per line. */
public enum LogFormat {
    TEXT,
    JSON
}
