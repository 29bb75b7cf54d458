package io.hikyaku.protocol;

import java.util.List;

/**
 * A shape of the SQS Query model, just detailed enough to flatten JSON 1.0 shapes into Query
 * parameters and XML elements and back. Every list and map in SQS's Query model is flattened:
 * a list field {@code AttributeNames} with element name {@code AttributeName} travels as
 * {@code AttributeName.1}, {@code AttributeName.2}, ... and as repeated {@code <AttributeName>}.
 */
sealed interface QueryShape {

    /** Text on the wire; number, string or boolean in JSON. */
    record Scalar() implements QueryShape {}

    /**
     * Base64 text of a blob (MessageAttributeValue BinaryValue / BinaryListValues items): checked and
     * made canonical when Query parameters are read, written as text in XML.
     */
    record Blob() implements QueryShape {}

    /** A flattened list; each item is named by the field's query name. */
    record ListOf(QueryShape member) implements QueryShape {}

    /** A flattened map; each entry is named by the field's query name and holds a key and a value. */
    record MapOf(String keyName, String valueName, QueryShape value) implements QueryShape {}

    /** A structure: its fields in model order. */
    record Struct(List<Field> fields) implements QueryShape {}

    /**
     * One field of a structure.
     *
     * @param jsonName  the member name in JSON 1.0
     * @param queryName the Query parameter / XML element name (the item name for lists and maps)
     * @param shape     its shape
     */
    record Field(String jsonName, String queryName, QueryShape shape) {}

    Scalar SCALAR = new Scalar();
    Blob BLOB = new Blob();
}
