package io.hikyaku.engine;

/**
 * One message (user) attribute. Exactly one of {@code stringValue} / {@code binaryValue} is set,
 * depending on whether {@code dataType} starts with Binary.
 */
public record MessageAttribute(String dataType, String stringValue, byte[] binaryValue) {

    public boolean isBinary() {
        return binaryValue != null;
    }

    /** Bytes counted towards MaximumMessageSize: len(name) + len(type) + len(value), UTF-8. */
    public int sizeWith(String name) {
        int value = binaryValue != null ? binaryValue.length : Utf8.length(stringValue);
        return Utf8.length(name) + Utf8.length(dataType) + value;
    }
}
