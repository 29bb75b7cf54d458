package io.hikyaku.identity.sts;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** STS's Query-protocol XML: results and errors in the 2011-06-15 namespace. */
public final class StsXml {

    public static final String NAMESPACE = "https://sts.amazonaws.com/doc/2011-06-15/";
    public static final String CONTENT_TYPE = "text/xml";

    private StsXml() {}

    /**
     * {@code <{action}Response xmlns=...><{action}Result>{members}</{action}Result>
     * <ResponseMetadata><RequestId>..</RequestId></ResponseMetadata></{action}Response>}.
     *
     * @param members already-escaped XML of the result's members
     */
    public static byte[] result(String action, String members, String requestId) {
        return ("<" + action + "Response xmlns=\"" + NAMESPACE + "\">"
                + "<" + action + "Result>" + members + "</" + action + "Result>"
                + "<ResponseMetadata><RequestId>" + escape(requestId) + "</RequestId></ResponseMetadata>"
                + "</" + action + "Response>").getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] error(String code, String message, String requestId) {
        return ("<ErrorResponse xmlns=\"" + NAMESPACE + "\"><Error><Type>Sender</Type><Code>" + escape(code)
                + "</Code><Message>" + escape(message) + "</Message></Error><RequestId>" + escape(requestId)
                + "</RequestId></ErrorResponse>").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code <Name>value</Name>} for each entry, in order; null values are left out. */
    static String elements(Map<String, String> members) {
        StringBuilder out = new StringBuilder();
        members.forEach((name, value) -> {
            if (value != null) {
                out.append('<').append(name).append('>').append(escape(value)).append("</").append(name).append('>');
            }
        });
        return out.toString();
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                        out.append("&#").append((int) c).append(';');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
