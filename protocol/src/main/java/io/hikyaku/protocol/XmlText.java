package io.hikyaku.protocol;

/**
 * Escapes text for XML 1.0 element content. {@code \r} becomes {@code &#xD;} so that parsers do not
 * normalise it away; code points XML 1.0 cannot carry at all (most C0 controls, U+FFFE, U+FFFF,
 * lone surrogates) become U+FFFD. SQS never stores such characters in bodies, but error messages
 * may echo them from a request.
 */
final class XmlText {

    private XmlText() {}

    static void append(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int width = Character.charCount(cp);
            switch (cp) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\r' -> out.append("&#xD;");
                default -> {
                    if (allowed(cp)) {
                        out.appendCodePoint(cp);
                    } else {
                        out.append('\uFFFD');
                    }
                }
            }
            i += width;
        }
    }

    static void element(StringBuilder out, String name, String text) {
        out.append('<').append(name).append('>');
        append(out, text);
        out.append("</").append(name).append('>');
    }

    /** XML 1.0 Char production; a lone surrogate is a code point in D800..DFFF and fails it. */
    static boolean allowed(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD
                || (cp >= 0x20 && cp <= 0xD7FF)
                || (cp >= 0xE000 && cp <= 0xFFFD)
                || (cp >= 0x10000 && cp <= 0x10FFFF);
    }
}
