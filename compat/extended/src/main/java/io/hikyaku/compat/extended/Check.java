package io.hikyaku.compat.extended;

import java.util.Objects;

/** Tiny assertion helpers: a failed check names what was expected and what came back, then the row fails. */
final class Check {
    private static final long START = System.nanoTime();

    private Check() {
    }

    static void step(String name) {
        System.out.printf("-- [%5.1fs] %s%n", (System.nanoTime() - START) / 1e9, name);
    }

    static void equal(Object got, Object expected, String what) {
        if (!Objects.equals(got, expected)) {
            throw new AssertionError(what + "\n  expected: " + expected + "\n  got:      " + got);
        }
    }

    static void isTrue(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
