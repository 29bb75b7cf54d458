package io.hikyaku.api;

import io.hikyaku.engine.MessageAttribute;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads and checks the MessageAttributes / MessageSystemAttributes of a send entry. */
final class MessageAttributesReader {

    static final int MAX_ATTRIBUTES = 10;
    static final String TRACE_HEADER = "AWSTraceHeader";

    private MessageAttributesReader() {}

    /** The user attributes of {@code entry}, validated; empty map when none. */
    static Map<String, MessageAttribute> userAttributes(Input entry) {
        Map<String, Input> raw = entry.objectMap("MessageAttributes");
        if (raw.size() > MAX_ATTRIBUTES) {
            throw Errors.invalidParameter("Number of message attributes [" + raw.size()
                    + "] exceeds the allowed maximum [" + MAX_ATTRIBUTES + "].");
        }
        Map<String, MessageAttribute> out = new LinkedHashMap<>();
        for (Map.Entry<String, Input> e : raw.entrySet()) {
            String name = e.getKey();
            String problem = AttributeNames.problem(name);
            if (problem != null) {
                throw Errors.invalidParameter(problem);
            }
            out.put(name, read("(user)", name, e.getValue()));
        }
        return out;
    }

    /** The AWSTraceHeader system attribute, or null; any other system attribute is refused. */
    static String traceHeader(Input entry) {
        Map<String, Input> raw = entry.objectMap("MessageSystemAttributes");
        String trace = null;
        for (Map.Entry<String, Input> e : raw.entrySet()) {
            if (!e.getKey().equals(TRACE_HEADER)) {
                throw Errors.invalidParameter("Message system attribute name '" + e.getKey() + "' is invalid.");
            }
            MessageAttribute a = read("system", e.getKey(), e.getValue());
            if (!a.dataType().equals("String")) {
                throw Errors.invalidParameter("Message system attribute '" + TRACE_HEADER + "' must be of type 'String'.");
            }
            trace = a.stringValue();
        }
        return trace;
    }

    private static MessageAttribute read(String kind, String name, Input value) {
        String dataType = value.string("DataType");
        if (dataType == null || dataType.isEmpty()) {
            throw Errors.invalidParameter("The message " + kind + " attribute '" + name
                    + "' must contain a non-empty message attribute type.");
        }
        String base = baseType(dataType);
        if (base == null || dataType.length() > AttributeNames.MAX_LENGTH) {
            throw Errors.invalidParameter("The type of message " + kind + " attribute '" + name
                    + "' is invalid. You must use only the following supported type prefixes: Binary, Number, String.");
        }
        String stringValue = value.string("StringValue");
        String binaryText = value.string("BinaryValue");
        if (stringValue != null && binaryText != null) {
            throw Errors.invalidParameter("Message " + kind + " attribute '" + name + "' must have a single value.");
        }
        String empty = "Message " + kind + " attribute '" + name + "' must contain a non-empty value of type '"
                + base + "'.";
        if (base.equals("Binary")) {
            byte[] bytes = binaryText == null ? null : decodeBase64(binaryText);
            if (bytes == null || bytes.length == 0) {
                throw Errors.invalidParameter(empty);
            }
            return new MessageAttribute(dataType, null, bytes);
        }
        if (stringValue == null || stringValue.isEmpty()) {
            throw Errors.invalidParameter(empty);
        }
        if (!MessageContent.isValid(stringValue)) {
            throw Errors.invalidParameter(MessageContent.INVALID_CHARACTERS);
        }
        if (base.equals("Number") && !isSqsNumber(stringValue)) {
            throw Errors.invalidParameter("Can't cast the value of message " + kind + " attribute '" + name
                    + "' to a number.");
        }
        return new MessageAttribute(dataType, stringValue, null);
    }

    /** String, Number or Binary when {@code dataType} is one of them, optionally followed by ".label". */
    static String baseType(String dataType) {
        for (String base : new String[] {"String", "Number", "Binary"}) {
            if (dataType.equals(base)) {
                return base;
            }
            if (dataType.startsWith(base + ".") && dataType.length() > base.length() + 1) {
                return base;
            }
        }
        return null;
    }

    /** SQS numbers: up to 38 significant digits, magnitude between 10^-128 and 10^+126. */
    static boolean isSqsNumber(String text) {
        BigDecimal n;
        try {
            n = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (n.signum() == 0) {
            return true;
        }
        BigDecimal stripped = n.stripTrailingZeros();
        if (stripped.precision() > 38) {
            return false;
        }
        int exponent = stripped.precision() - stripped.scale() - 1;
        return exponent >= -128 && exponent <= 126;
    }

    /**
     * Checks every blob of an entry's MessageAttributes and MessageSystemAttributes (BinaryValue and
     * BinaryListValues, whatever the DataType) before anything else is read. Amazon SQS deserialises
     * the whole body (Coral) before it validates anything, so a blob that is not base64 is a
     * SerializationException ahead of any other error, and fails the whole request (a batch too).
     */
    static void checkBlobs(Input entry) {
        checkBlobs(entry.objectMap("MessageAttributes"));
        checkBlobs(entry.objectMap("MessageSystemAttributes"));
    }

    private static void checkBlobs(Map<String, Input> attributes) {
        for (Input value : attributes.values()) {
            String binary = value.string("BinaryValue");
            if (binary != null) {
                decodeBase64(binary);
            }
            for (String item : value.stringList("BinaryListValues")) {
                decodeBase64(item);
            }
        }
    }

    /**
     * A JSON blob, decoded as Coral does: standard alphabet, padded, so the length is a multiple of 4
     * (Coral's message for that case); no whitespace. The Query codec hands over canonical base64
     * (it checks and normalises form values itself, see protocol/PROTOCOL.md).
     */
    static byte[] decodeBase64(String text) {
        if (text.length() % 4 != 0) {
            throw Errors.serialization("Base64 encoded length is expected a multiple of 4 bytes but found: "
                    + text.length());
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw Errors.serialization("Base64 encoded value is not valid");
        }
    }
}
