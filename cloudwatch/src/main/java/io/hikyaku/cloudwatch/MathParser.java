package io.hikyaku.cloudwatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses CloudWatch metric math: numbers, Ids of other queries, {@code + - * / ^}, comparisons
 * ({@code < > <= >= == != <>}), {@code AND OR NOT}, parentheses, arrays {@code [m1, m2]}, strings
 * and calls of the functions this server evaluates ({@link #FUNCTIONS}); any other function name is a
 * ValidationError, as CloudWatch answers an unknown one. Bounded: 1024 characters and 50 levels deep.
 */
final class MathParser {

    /** The functions evaluated (MathEvaluator). */
    static final Set<String> FUNCTIONS = Set.of("SUM", "AVG", "MIN", "MAX", "FILL", "IF", "METRICS", "ABS", "CEIL", "FLOOR");
    static final int MAX_LENGTH = 1024;
    private static final int MAX_DEPTH = 50;

    private final String text;
    private final String id;
    private int pos;
    private int depth;

    private MathParser(String text, String id) {
        this.text = text;
        this.id = id;
    }

    /** @param id the query's Id (named in error messages) */
    static MathNode parse(String expression, String id) {
        if (expression.length() > MAX_LENGTH) {
            throw CloudWatchException.validation("Error in expression " + id + ": the expression is longer than " + MAX_LENGTH + " characters.");
        }
        MathParser p = new MathParser(expression, id);
        MathNode n = p.or();
        p.skipSpace();
        if (p.pos < p.text.length()) {
            throw p.error("Unexpected character '" + p.text.charAt(p.pos) + "' at position " + (p.pos + 1));
        }
        return n;
    }

    private CloudWatchException error(String what) {
        return CloudWatchException.validation("Error in expression " + id + ": " + what + ".");
    }

    private MathNode or() {
        MathNode left = and();
        while (keyword("OR")) {
            left = new MathNode.Binary("OR", left, and());
        }
        return left;
    }

    private MathNode and() {
        MathNode left = comparison();
        while (keyword("AND")) {
            left = new MathNode.Binary("AND", left, comparison());
        }
        return left;
    }

    private MathNode comparison() {
        MathNode left = additive();
        for (String op : List.of("<=", ">=", "==", "!=", "<>", "<", ">")) {
            if (symbol(op)) {
                return new MathNode.Binary(op.equals("<>") ? "!=" : op, left, additive());
            }
        }
        return left;
    }

    private MathNode additive() {
        MathNode left = multiplicative();
        while (true) {
            if (symbol("+")) {
                left = new MathNode.Binary("+", left, multiplicative());
            } else if (symbol("-")) {
                left = new MathNode.Binary("-", left, multiplicative());
            } else {
                return left;
            }
        }
    }

    private MathNode multiplicative() {
        MathNode left = unary();
        while (true) {
            if (symbol("*")) {
                left = new MathNode.Binary("*", left, unary());
            } else if (symbol("/")) {
                left = new MathNode.Binary("/", left, unary());
            } else if (symbol("^")) {
                left = new MathNode.Binary("^", left, unary());
            } else {
                return left;
            }
        }
    }

    private MathNode unary() {
        if (++depth > MAX_DEPTH) {
            throw error("The expression is nested more than " + MAX_DEPTH + " levels deep");
        }
        try {
            if (symbol("-")) {
                return new MathNode.Unary("-", unary());
            }
            if (keyword("NOT")) {
                return new MathNode.Unary("NOT", unary());
            }
            return primary();
        } finally {
            depth--;
        }
    }

    private MathNode primary() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("Unexpected end of the expression");
        }
        char c = text.charAt(pos);
        if (c == '(') {
            pos++;
            MathNode inner = or();
            expect(")");
            return inner;
        }
        if (c == '[') {
            pos++;
            List<MathNode> items = new ArrayList<>();
            if (!symbol("]")) {
                do {
                    items.add(or());
                } while (symbol(","));
                expect("]");
            }
            return new MathNode.Array(items);
        }
        if (c == '"' || c == '\'') {
            int end = text.indexOf(c, pos + 1);
            if (end < 0) {
                throw error("Unterminated string");
            }
            String s = text.substring(pos + 1, end);
            pos = end + 1;
            return new MathNode.Text(s);
        }
        if (Character.isDigit(c) || c == '.') {
            int start = pos;
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                pos++;
            }
            if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                pos++;
                if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                    pos++;
                }
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
            }
            try {
                return new MathNode.Number(Double.parseDouble(text.substring(start, pos)));
            } catch (NumberFormatException e) {
                throw error("Invalid number " + text.substring(start, pos));
            }
        }
        if (Character.isLetter(c) || c == '_') {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                pos++;
            }
            String name = text.substring(start, pos);
            if (symbol("(")) {
                String function = name.toUpperCase(java.util.Locale.ROOT);
                if (!FUNCTIONS.contains(function)) {
                    throw error("Unknown function " + name);
                }
                List<MathNode> args = new ArrayList<>();
                if (!symbol(")")) {
                    do {
                        args.add(or());
                    } while (symbol(","));
                    expect(")");
                }
                return new MathNode.Call(function, args);
            }
            if (name.equals("REPEAT") || name.equals("LINEAR")) {
                return new MathNode.Keyword(name);
            }
            if (!Character.isLowerCase(name.charAt(0))) {
                throw error("Unknown identifier " + name);
            }
            return new MathNode.Reference(name);
        }
        throw error("Unexpected character '" + c + "' at position " + (pos + 1));
    }

    private void expect(String s) {
        if (!symbol(s)) {
            throw error("Expected '" + s + "' at position " + (pos + 1));
        }
    }

    private boolean symbol(String s) {
        skipSpace();
        if (text.startsWith(s, pos)) {
            pos += s.length();
            return true;
        }
        return false;
    }

    /** A whole-word keyword (case-sensitive, as CloudWatch's AND, OR, NOT). */
    private boolean keyword(String word) {
        skipSpace();
        int end = pos + word.length();
        if (text.startsWith(word, pos) && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_')) {
            pos = end;
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }
}
