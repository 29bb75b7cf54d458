package io.hikyaku.api;

/** The characters SQS accepts in bodies and string attribute values. */
final class MessageContent {

    static final String INVALID_CHARACTERS = "Invalid characters found. Valid unicode characters are "
            + "#x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF";

    private MessageContent() {}

    /** #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF; a lone surrogate fails. */
    static boolean isValid(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!isAllowed(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    static boolean isAllowed(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD
                || (cp >= 0x20 && cp <= 0xD7FF)
                || (cp >= 0xE000 && cp <= 0xFFFD)
                || (cp >= 0x10000 && cp <= 0x10FFFF);
    }
}
