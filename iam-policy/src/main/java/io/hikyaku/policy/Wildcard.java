package io.hikyaku.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A policy string compiled once: literal text, the wildcards {@code *} (any run, also across
 * {@code /} and {@code :}) and {@code ?} (one character) where the element allows them, and, in
 * 2012-10-17 policies, policy variables: {@code ${aws:username}}, {@code ${key, 'default'}}, and the
 * escapes {@code ${*}}, {@code ${?}}, {@code ${$}} for a literal {@code *}, {@code ?}, {@code $}. A
 * variable's value is literal text (a {@code *} in a user name is no wildcard); a variable whose key
 * the request lacks (and that has no default) makes the string match nothing.
 */
final class Wildcard {

    private static final int STAR = -1;
    private static final int ONE = -2;

    /** One compiled piece: literal text (kind 0), STAR, ONE, or a variable (key + fallback). */
    private record Part(int kind, String text, String key, String fallback) {}

    private final String source;
    private final List<Part> parts;
    /** The pattern as code points / STAR / ONE when it holds no variable (the common case). */
    private final int[] fixed;
    /** {@link #fixed} compiled for matching, per case mode, built on first use (a benign race). */
    private volatile Glob fixedExact;
    private volatile Glob fixedIgnoringCase;

    private Wildcard(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
        boolean hasVariable = parts.stream().anyMatch(p -> p.key() != null);
        this.fixed = hasVariable ? null : flatten(parts, null);
    }

    String source() {
        return source;
    }

    /** Whether the pattern holds a policy variable (its text then depends on the request's keys). */
    boolean hasVariables() {
        return fixed == null;
    }

    /**
     * @param wildcards whether {@code *} and {@code ?} are wildcards here (StringLike, Resource...) or
     *                  literal characters (StringEquals)
     * @param variables whether {@code ${...}} is a policy variable (2012-10-17) or literal text
     */
    static Wildcard compile(String source, boolean wildcards, boolean variables) throws PolicyException {
        List<Part> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (variables && c == '$' && i + 1 < source.length() && source.charAt(i + 1) == '{') {
                int end = source.indexOf('}', i + 2);
                if (end < 0) {
                    throw new PolicyException("Unterminated policy variable in \"" + source + "\"");
                }
                String body = source.substring(i + 2, end).trim();
                if (body.equals("*") || body.equals("?") || body.equals("$")) {
                    text.append(body);
                } else {
                    flushText(parts, text);
                    parts.add(variable(body, source));
                }
                i = end + 1;
            } else if (wildcards && (c == '*' || c == '?')) {
                flushText(parts, text);
                parts.add(new Part(c == '*' ? STAR : ONE, null, null, null));
                i++;
            } else {
                text.append(c);
                i++;
            }
        }
        flushText(parts, text);
        return new Wildcard(source, parts);
    }

    private static Part variable(String body, String source) throws PolicyException {
        String key = body;
        String fallback = null;
        int comma = body.indexOf(',');
        if (comma >= 0) {
            key = body.substring(0, comma).trim();
            String rest = body.substring(comma + 1).trim();
            if (rest.length() < 2 || rest.charAt(0) != '\'' || rest.charAt(rest.length() - 1) != '\'') {
                throw new PolicyException("Invalid default value in policy variable \"${" + body + "}\" of \"" + source + "\"");
            }
            fallback = rest.substring(1, rest.length() - 1);
        }
        if (key.isEmpty() || key.indexOf(':') <= 0 || key.chars().anyMatch(Character::isWhitespace)) {
            throw new PolicyException("Invalid policy variable \"${" + body + "}\" in \"" + source + "\"");
        }
        return new Part(0, null, ConditionKeys.normalize(key), fallback);
    }

    private static void flushText(List<Part> parts, StringBuilder text) {
        if (text.length() > 0) {
            parts.add(new Part(0, text.toString(), null, null));
            text.setLength(0);
        }
    }

    /** Whether {@code value} matches; {@code context} resolves variables (may be null if there are none). */
    boolean matches(String value, RequestContext context, boolean ignoreCase) {
        return matches(value, context, ignoreCase, null);
    }

    /** {@link #matches}, adding the number of machine words the matcher touched to {@code steps[0]} (tests). */
    boolean matches(String value, RequestContext context, boolean ignoreCase, long[] steps) {
        Glob glob;
        if (fixed != null) {
            glob = ignoreCase ? fixedIgnoringCase : fixedExact;
            if (glob == null) {
                glob = new Glob(fixed, ignoreCase);
                if (ignoreCase) {
                    fixedIgnoringCase = glob;
                } else {
                    fixedExact = glob;
                }
            }
        } else {
            int[] pattern = flatten(parts, context);
            if (pattern == null) {
                return false;
            }
            glob = new Glob(pattern, ignoreCase);
        }
        return glob.matches(value, steps);
    }

    /** Code points with STAR / ONE markers, variables resolved; null if a variable has no value. */
    private static int[] flatten(List<Part> parts, RequestContext context) {
        StringBuilder literal = new StringBuilder();
        List<Integer> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.kind() != 0) {
                out.add(p.kind());
                continue;
            }
            String text = p.text();
            if (p.key() != null) {
                List<String> values = context == null ? null : context.values(p.key());
                if (values != null && values.size() == 1) {
                    text = values.get(0);
                } else if (p.fallback() != null) {
                    text = p.fallback();
                } else {
                    return null;
                }
            }
            literal.setLength(0);
            literal.append(text);
            literal.codePoints().forEach(out::add);
        }
        int[] result = new int[out.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = out.get(i);
        }
        return result;
    }

    /** The one case form two characters share when they are equal ignoring case. */
    static int fold(int c) {
        return Character.toLowerCase(Character.toUpperCase(c));
    }

    /**
     * A pattern as a bit-parallel automaton (shift-and with a self-loop on each {@code *}): bit i of
     * the state says "the first i pattern symbols can match the text read so far". Each text
     * character costs one pass over ceil((m+1)/64) words, so a match costs O(n*m/64) word operations
     * whatever the pattern: no backtracking, no input that makes it slower than that bound.
     */
    private static final class Glob {
        private final int length;
        private final int words;
        private final boolean ignoreCase;
        private final long[] stars;
        private final long[] anyOne;
        /** For each literal character (folded when ignoring case): the positions that accept it. */
        private final Map<Integer, long[]> literals = new HashMap<>();
        private final long[] start;

        Glob(int[] raw, boolean ignoreCase) {
            int[] pattern = collapseStars(raw);
            this.length = pattern.length;
            this.words = (length >>> 6) + 1;
            this.ignoreCase = ignoreCase;
            this.stars = new long[words];
            this.anyOne = new long[words];
            for (int i = 0; i < length; i++) {
                int sym = pattern[i];
                long bit = 1L << (i & 63);
                if (sym == STAR) {
                    stars[i >>> 6] |= bit;
                } else if (sym == ONE) {
                    anyOne[i >>> 6] |= bit;
                } else {
                    literals.computeIfAbsent(ignoreCase ? fold(sym) : sym, k -> new long[words])[i >>> 6] |= bit;
                }
            }
            long[] initial = new long[words];
            initial[0] = 1L;
            closeOverStars(initial);
            this.start = initial;
        }

        /** Consecutive stars match what one star matches; one star each keeps the closure a single pass. */
        private static int[] collapseStars(int[] pattern) {
            int[] out = new int[pattern.length];
            int n = 0;
            for (int sym : pattern) {
                if (sym != STAR || n == 0 || out[n - 1] != STAR) {
                    out[n++] = sym;
                }
            }
            return Arrays.copyOf(out, n);
        }

        /** A star matches the empty string: wherever a star position is reached, the position after it is too. */
        private void closeOverStars(long[] state) {
            long carry = 0;
            for (int w = 0; w < words; w++) {
                long atStar = state[w] & stars[w];
                state[w] |= (atStar << 1) | carry;
                carry = atStar >>> 63;
            }
        }

        boolean matches(String text, long[] steps) {
            long[] state = start.clone();
            long[] next = new long[words];
            long touched = 0;
            for (int t = 0; t < text.length(); ) {
                int c = text.codePointAt(t);
                t += Character.charCount(c);
                long[] accepting = literals.get(ignoreCase ? fold(c) : c);
                long shiftCarry = 0;
                long closeCarry = 0;
                long alive = 0;
                for (int w = 0; w < words; w++) {
                    long advancing = state[w] & (anyOne[w] | (accepting == null ? 0 : accepting[w]));
                    long v = (advancing << 1) | shiftCarry | (state[w] & stars[w]);
                    shiftCarry = advancing >>> 63;
                    long atStar = v & stars[w];
                    v |= (atStar << 1) | closeCarry;
                    closeCarry = atStar >>> 63;
                    next[w] = v;
                    alive |= v;
                }
                touched += words;
                long[] swap = state;
                state = next;
                next = swap;
                if (alive == 0) {
                    break;
                }
            }
            if (steps != null) {
                steps[0] += touched;
            }
            return (state[length >>> 6] & (1L << (length & 63))) != 0;
        }
    }

    @Override
    public String toString() {
        return source;
    }
}
