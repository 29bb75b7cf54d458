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
        String[] split = pattern.split(":", 6);
        if (split.length != 6 || !split[0].equals("arn")) {
            throw new PolicyException("Invalid ARN in condition: \"" + pattern + "\"");
        }
        Wildcard[] parts = new Wildcard[6];
        for (int i = 0; i < 6; i++) {
            parts[i] = Wildcard.compile(split[i], true, variables);
        }
        return new ArnPattern(parts);
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
