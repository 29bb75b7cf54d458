package io.hikyaku.policy;

import java.util.ArrayList;
import java.util.List;

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

    private Wildcard(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
        boolean hasVariable = parts.stream().anyMatch(p -> p.key() != null);
        this.fixed = hasVariable ? null : flatten(parts, null);
    }

    String source() {
        return source;
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
        int[] pattern = fixed != null ? fixed : flatten(parts, context);
        return pattern != null && glob(pattern, value, ignoreCase);
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

    /** Classic wildcard match with one backtrack point: linear for typical patterns, O(n*m) worst case. */
    private static boolean glob(int[] pattern, String text, boolean ignoreCase) {
        int p = 0;
        int t = 0;
        int starP = -1;
        int starT = -1;
        int n = text.length();
        while (t < n) {
            int c = text.codePointAt(t);
            if (p < pattern.length && pattern[p] == STAR) {
                starP = p++;
                starT = t;
            } else if (p < pattern.length && (pattern[p] == ONE || same(pattern[p], c, ignoreCase))) {
                p++;
                t += Character.charCount(c);
            } else if (starP >= 0) {
                p = starP + 1;
                starT += Character.charCount(text.codePointAt(starT));
                t = starT;
            } else {
                return false;
            }
        }
        while (p < pattern.length && pattern[p] == STAR) {
            p++;
        }
        return p == pattern.length;
    }

    private static boolean same(int a, int b, boolean ignoreCase) {
        return a == b || (ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b))
                || (ignoreCase && Character.toUpperCase(a) == Character.toUpperCase(b));
    }

    @Override
    public String toString() {
        return source;
    }
}
