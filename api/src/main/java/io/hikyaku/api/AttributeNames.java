package io.hikyaku.api;

import java.util.Locale;

/** Syntax of message (user) attribute names (sqs-behaviours 29, sqs-api-and-limits). */
final class AttributeNames {

    static final int MAX_LENGTH = 256;

    private AttributeNames() {}

    /** Why {@code name} is refused, or null when it is a valid attribute name. */
    static String problem(String name) {
        if (name.isEmpty() || name.length() > MAX_LENGTH) {
            return "Message (user) attribute name '" + name + "' is invalid. It must be 1 to 256 characters long.";
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("aws.") || lower.startsWith("amazon.")) {
            return "You can't use message attribute names beginning with 'AWS.' or 'Amazon.'. "
                    + "These name prefixes are reserved for use by Amazon Web Services.";
        }
        if (name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
            return "Message (user) attribute name '" + name
                    + "' is invalid. It can't start or end with a period or contain two periods in a row.";
        }
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            // Letters of any script are accepted (AWS takes names such as attr.1øßä), symbols are not.
            if (!Character.isLetterOrDigit(cp) && cp != '_' && cp != '-' && cp != '.') {
                return "Message (user) attribute name '" + name + "' is invalid. It can only contain "
                        + "alphanumeric characters, hyphens, underscores and periods.";
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    static boolean isValid(String name) {
        return problem(name) == null;
    }
}
