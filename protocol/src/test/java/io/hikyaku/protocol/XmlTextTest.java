package io.hikyaku.protocol;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** XML escaping survives a real parser for every character SQS allows in a body. */
class XmlTextTest {

    private static String roundTrip(String text) {
        StringBuilder out = new StringBuilder("<a>");
        XmlText.append(out, text);
        out.append("</a>");
        return Http.xml(out.toString().getBytes(StandardCharsets.UTF_8)).getDocumentElement().getTextContent();
    }

    @Test
    void escapesMarkupAndCarriageReturn() {
        StringBuilder out = new StringBuilder();
        XmlText.append(out, "a<b>&\"c\"\r\n\t");
        assertEquals("a&lt;b&gt;&amp;&quot;c&quot;&#xD;\n\t", out.toString());
    }

    @Test
    void everyAllowedCharacterSurvivesParsing() {
        StringBuilder all = new StringBuilder("\t\n\r\r\n");
        for (int cp = 0x20; cp <= 0xD7FF; cp += 7) {
            all.appendCodePoint(cp);
        }
        for (int cp = 0xE000; cp <= 0xFFFD; cp += 3) {
            all.appendCodePoint(cp);
        }
        for (int cp = 0x10000; cp <= 0x10FFFF; cp += 4099) {
            all.appendCodePoint(cp);
        }
        all.appendCodePoint(0x10FFFF).append("]]>");
        assertEquals(all.toString(), roundTrip(all.toString()));
    }

    @Test
    void forbiddenCharactersBecomeReplacementCharacters() {
        assertEquals("\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd",
                roundTrip("\u0000\u0008\u000b\u001f\ufffe\udc00"));
    }
}
