package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/** Writes an output tree as RPC v2 CBOR (timestamps as tag 1, epoch seconds), AWS JSON 1.0 or Query XML. */
final class WireEncoders {

    static final String XML_NAMESPACE = "http://monitoring.amazonaws.com/doc/2010-08-01/";
    private static final CBORFactory CBOR = new CBORFactory();
    private static final JsonFactory JSON = new JsonFactory();

    private WireEncoders() {}

    /** RPC v2 CBOR: timestamps as tag 1 around epoch seconds. */
    static byte[] cbor(Map<String, Object> tree) {
        return encode(CBOR, tree);
    }

    /** AWS JSON 1.0: timestamps as epoch seconds. */
    static byte[] json(Map<String, Object> tree) {
        return encode(JSON, tree);
    }

    private static byte[] encode(JsonFactory factory, Map<String, Object> tree) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = factory.createGenerator(bytes)) {
            write(g, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** One writer for both: a CBOR generator writes the same tokens in CBOR, and tags timestamps. */
    @SuppressWarnings("unchecked")
    private static void write(JsonGenerator g, Object value) throws IOException {
        if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (value instanceof Instant t) {
            if (g instanceof CBORGenerator cbor) {
                cbor.writeTag(1);
            }
            if (t.getNano() == 0) {
                g.writeNumber(t.getEpochSecond());
            } else {
                g.writeNumber(t.toEpochMilli() / 1000.0);
            }
        } else if (value instanceof Double d) {
            g.writeNumber(d);
        } else if (value instanceof Number n) {
            g.writeNumber(n.longValue());
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeString(String.valueOf(value));
        }
    }

    /** {@code <ActionResponse><ActionResult>...</ActionResult><ResponseMetadata>...</ResponseMetadata></ActionResponse>}. */
    static byte[] xml(String action, Map<String, Object> tree, String requestId) {
        StringBuilder sb = new StringBuilder(256);
        sb.append("<").append(action).append("Response xmlns=\"").append(XML_NAMESPACE).append("\">");
        sb.append('<').append(action).append("Result>");
        writeXmlFields(sb, tree);
        sb.append("</").append(action).append("Result>");
        sb.append("<ResponseMetadata><RequestId>").append(escape(requestId)).append("</RequestId></ResponseMetadata>");
        sb.append("</").append(action).append("Response>");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] xmlError(CloudWatchException e, String requestId) {
        String xml = "<ErrorResponse xmlns=\"" + XML_NAMESPACE + "\"><Error><Type>" + (e.sender ? "Sender" : "Receiver")
                + "</Type><Code>" + escape(e.code) + "</Code><Message>" + escape(e.getMessage()) + "</Message></Error>"
                + "<RequestId>" + escape(requestId) + "</RequestId></ErrorResponse>";
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static void writeXmlFields(StringBuilder sb, Map<String, Object> map) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            sb.append('<').append(e.getKey()).append('>');
            writeXmlValue(sb, e.getValue());
            sb.append("</").append(e.getKey()).append('>');
        }
    }

    @SuppressWarnings("unchecked")
    private static void writeXmlValue(StringBuilder sb, Object value) {
        if (value instanceof Map<?, ?> map) {
            writeXmlFields(sb, (Map<String, Object>) map);
        } else if (value instanceof List<?> list) {
            for (Object o : list) {
                sb.append("<member>");
                writeXmlValue(sb, o);
                sb.append("</member>");
            }
        } else if (value instanceof Instant t) {
            sb.append(DateTimeFormatter.ISO_INSTANT.format(t));
        } else {
            sb.append(escape(String.valueOf(value)));
        }
    }

    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
