package io.hikyaku.sns;

import java.util.Map;

/** SNS's XML responses: {@code <XResponse xmlns=...><XResult>...</XResult><ResponseMetadata>...} and errors. */
final class SnsXml {

    static final String NAMESPACE = "http://sns.amazonaws.com/doc/2010-03-31/";

    private final StringBuilder out = new StringBuilder(256);

    SnsXml element(String name, String text) {
        out.append('<').append(name).append('>');
        escape(out, text);
        out.append("</").append(name).append('>');
        return this;
    }

    SnsXml open(String name) {
        out.append('<').append(name).append('>');
        return this;
    }

    SnsXml close(String name) {
        out.append("</").append(name).append('>');
        return this;
    }

    SnsXml attributes(String wrapper, Map<String, String> map) {
        open(wrapper);
        for (Map.Entry<String, String> e : map.entrySet()) {
            open("entry").element("key", e.getKey()).element("value", e.getValue()).close("entry");
        }
        return close(wrapper);
    }

    /** The whole response; {@code result} null means the action has no result element. */
    static String response(String action, SnsXml result, boolean emptyResult, String requestId) {
        StringBuilder s = new StringBuilder(300);
        s.append('<').append(action).append("Response xmlns=\"").append(NAMESPACE).append("\">");
        if (result != null) {
            s.append('<').append(action).append("Result>").append(result.out).append("</").append(action).append("Result>");
        } else if (emptyResult) {
            s.append('<').append(action).append("Result/>");
        }
        s.append("<ResponseMetadata><RequestId>").append(requestId).append("</RequestId></ResponseMetadata></")
                .append(action).append("Response>");
        return s.toString();
    }

    static String error(SnsException e, String requestId) {
        StringBuilder s = new StringBuilder(300);
        s.append("<ErrorResponse xmlns=\"").append(NAMESPACE).append("\"><Error><Type>")
                .append(e.status() >= 500 ? "Receiver" : "Sender").append("</Type><Code>");
        escape(s, e.code());
        s.append("</Code><Message>");
        escape(s, e.getMessage());
        s.append("</Message></Error><RequestId>").append(requestId).append("</RequestId></ErrorResponse>");
        return s.toString();
    }

    static void escape(StringBuilder out, String text) {
        if (text == null) {
            return;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\r' -> out.append("&#xD;");
                case '\n' -> out.append("&#xA;");
                default -> out.append(c);
            }
        }
    }
}
