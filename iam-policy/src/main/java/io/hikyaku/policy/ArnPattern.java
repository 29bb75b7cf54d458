package io.hikyaku.policy;

/**
 * An ARN pattern for ArnEquals / ArnLike (identical in IAM): the six colon-separated parts
 * ({@code arn:partition:service:region:account:resource}) are matched one by one, each with
 * {@code *} and {@code ?}; the resource part may itself contain colons.
 */
final class ArnPattern {
    private final Wildcard[] parts;

    private ArnPattern(Wildcard[] parts) {
        this.parts = parts;
    }

    static ArnPattern compile(String pattern, boolean variables) throws PolicyException {
        String[] split = split(pattern, variables);
        if (split == null || !split[0].equals("arn")) {
            throw new PolicyException("Invalid ARN in condition: \"" + pattern + "\"");
        }
        Wildcard[] parts = new Wildcard[6];
        for (int i = 0; i < 6; i++) {
            parts[i] = Wildcard.compile(split[i], true, variables);
        }
        return new ArnPattern(parts);
    }

    /** The six parts, splitting at colons outside policy variables ({@code ${aws:username}} holds one). */
    private static String[] split(String pattern, boolean variables) {
        String[] out = new String[6];
        int part = 0;
        int start = 0;
        int depth = 0;
        for (int i = 0; i < pattern.length() && part < 5; i++) {
            char c = pattern.charAt(i);
            if (variables && c == '$' && i + 1 < pattern.length() && pattern.charAt(i + 1) == '{') {
                depth = 1;
            } else if (depth == 1 && c == '}') {
                depth = 0;
            } else if (depth == 0 && c == ':') {
                out[part++] = pattern.substring(start, i);
                start = i + 1;
            }
        }
        if (part != 5) {
            return null;
        }
        out[5] = pattern.substring(start);
        return out;
    }

    boolean matches(String arn, RequestContext context) {
        String[] split = arn.split(":", 6);
        if (split.length != 6) {
            return false;
        }
        for (int i = 0; i < 6; i++) {
            if (!parts[i].matches(split[i], context, false)) {
                return false;
            }
        }
        return true;
    }
}
