package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.QueryShape.Field;
import io.hikyaku.protocol.QueryShape.ListOf;
import io.hikyaku.protocol.QueryShape.MapOf;
import io.hikyaku.protocol.QueryShape.Blob;
import io.hikyaku.protocol.QueryShape.Scalar;
import io.hikyaku.protocol.QueryShape.Struct;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** Writes Query/XML responses: JSON 1.0 result shapes flattened by {@link QueryModel}, and errors. */
final class QueryXmlEncoder {

    static final String NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

    private QueryXmlEncoder() {}

    static String result(String action, ObjectNode result, String requestId) {
        StringBuilder out = new StringBuilder(256);
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        out.append('<').append(action).append("Response xmlns=\"").append(NAMESPACE).append("\">");
        Struct shape = QueryModel.OUTPUTS.get(action);
        if (shape != null) {
            int open = out.length();
            out.append('<').append(action).append("Result>");
            int content = out.length();
            if (result != null) {
                struct(out, shape, result);
            }
            if (out.length() == content) {
                out.setLength(open); // an empty result is self-closing, as SQS writes it (sqs-behaviours 83)
                out.append('<').append(action).append("Result/>");
            } else {
                out.append("</").append(action).append("Result>");
            }
        }
        out.append("<ResponseMetadata>");
        XmlText.element(out, "RequestId", requestId == null ? "" : requestId);
        out.append("</ResponseMetadata>");
        out.append("</").append(action).append("Response>");
        return out.toString();
    }

    static String error(String fault, String code, String message, String requestId) {
        StringBuilder out = new StringBuilder(256);
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        out.append("<ErrorResponse xmlns=\"").append(NAMESPACE).append("\"><Error>");
        XmlText.element(out, "Type", fault);
        XmlText.element(out, "Code", code);
        XmlText.element(out, "Message", message);
        out.append("<Detail/></Error>");
        XmlText.element(out, "RequestId", requestId);
        out.append("</ErrorResponse>");
        return out.toString();
    }

    private static void struct(StringBuilder out, Struct shape, JsonNode node) {
        Set<String> known = new HashSet<>();
        for (Field field : shape.fields()) {
            known.add(field.jsonName());
            JsonNode value = node.get(field.jsonName());
            if (value != null && !value.isNull()) {
                field(out, field.queryName(), field.shape(), value);
            }
        }
        // Scalars the model does not list yet still reach the client under their own name.
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!known.contains(e.getKey()) && e.getValue().isValueNode() && !e.getValue().isNull()
                    && e.getKey().matches("[A-Za-z_][A-Za-z0-9_.-]*")) {
                XmlText.element(out, e.getKey(), e.getValue().asText());
            }
        }
    }

    private static void field(StringBuilder out, String name, QueryShape shape, JsonNode value) {
        if (shape instanceof Scalar || shape instanceof Blob) {
            if (value.isValueNode()) {
                XmlText.element(out, name, value.asText());
            }
        } else if (shape instanceof ListOf list) {
            if (!value.isArray()) {
                return;
            }
            for (JsonNode item : value) {
                if (!item.isNull()) {
                    field(out, name, list.member(), item);
                }
            }
        } else if (shape instanceof MapOf map) {
            if (!value.isObject()) {
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.append('<').append(name).append('>');
                XmlText.element(out, map.keyName(), e.getKey());
                field(out, map.valueName(), map.value(), e.getValue());
                out.append("</").append(name).append('>');
            }
        } else if (shape instanceof Struct inner) {
            if (value.isObject()) {
                out.append('<').append(name).append('>');
                struct(out, inner, value);
                out.append("</").append(name).append('>');
            }
        }
    }
}
