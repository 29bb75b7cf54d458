package io.hikyaku.api;

/** Syntax of MessageGroupId and MessageDeduplicationId: 1..128 alphanumeric or ASCII punctuation. */
final class FifoIds {

    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private FifoIds() {}

    static boolean isValid(String id) {
        if (id.isEmpty() || id.length() > 128) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && PUNCTUATION.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Throws InvalidParameterValue in SQS's words when {@code id} is present and malformed. */
    static void check(String parameter, String id) {
        if (id != null && !isValid(id)) {
            throw Errors.invalidValue(parameter, id, parameter
                    + " can only include alphanumeric and punctuation characters. 1 to 128 in length.");
        }
    }
}
