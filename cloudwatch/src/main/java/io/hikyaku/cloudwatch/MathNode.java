package io.hikyaku.cloudwatch;

import java.util.List;

/** A parsed metric math expression (see {@link MathParser}). */
sealed interface MathNode {

    /** A number literal. */
    record Number(double value) implements MathNode {}

    /** A string literal (METRICS' filter). */
    record Text(String value) implements MathNode {}

    /** The Id of another query of the request. */
    record Reference(String id) implements MathNode {}

    /** A keyword argument of FILL: REPEAT or LINEAR. */
    record Keyword(String name) implements MathNode {}

    /** {@code [a, b, ...]}: an array of time series. */
    record Array(List<MathNode> items) implements MathNode {}

    /** {@code -x} or {@code NOT x}. */
    record Unary(String op, MathNode operand) implements MathNode {}

    /** Arithmetic, comparison or logical operator. */
    record Binary(String op, MathNode left, MathNode right) implements MathNode {}

    /** A function call, its name upper-cased. */
    record Call(String function, List<MathNode> args) implements MathNode {}
}
