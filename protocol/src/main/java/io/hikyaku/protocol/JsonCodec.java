package io.hikyaku.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Shared strict JSON reading and safe writing for both protocols. */
final class JsonCodec {

    /** Deeper input than this is refused: SQS shapes nest at most 5 levels. */
    static final int MAX_DEPTH = 64;

    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(1000)
                    .build())
            // Characters outside the BMP as their 4 UTF-8 bytes, as SQS writes them, not \\u escapes.
            .enable(com.fasterxml.jackson.core.json.JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonCodec() {}

    /**
     * Parses a JSON 1.0 request body. An empty (or blank) body is the empty input {@code {}};
     * anything that is not strict UTF-8 holding one JSON object is a SerializationException.
     * {@link TreeReader} reads the usual (ASCII) body; what it declines, Jackson reads or refuses.
     */
    static ObjectNode parseObject(byte[] body) {
        if (isAscii(body)) { // the usual case: ASCII is valid UTF-8, so parse the bytes without a copy
            if (isBlankAscii(body)) {
                return parsed(null, null);
            }
            ObjectNode read = TreeReader.readObject(body);
            return read != null ? read : parsed(body, null);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw serialization("The request body is not valid UTF-8.");
        }
        return parsed(null, text.isBlank() ? null : text);
    }

    /** Parses {@code bytes} or {@code text} (both null: blank input, the empty object). */
    private static ObjectNode parsed(byte[] bytes, String text) {
        if (bytes == null && text == null) {
            return MAPPER.createObjectNode();
        }
        JsonNode node;
        try {
            node = bytes != null ? MAPPER.readTree(bytes) : MAPPER.readTree(text);
        } catch (Exception e) { // any parse or limit failure is the client's: never a 500
            throw serialization("The request body is not a valid JSON document.");
        }
        if (node == null || !node.isObject()) {
            throw serialization("The request body must be a JSON object.");
        }
        return (ObjectNode) node;
    }

    private static boolean isAscii(byte[] body) {
        for (byte b : body) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    /** Blank as String.isBlank sees ASCII: only whitespace and control characters up to space. */
    private static boolean isBlankAscii(byte[] body) {
        for (byte b : body) {
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /**
     * UTF-8 bytes of {@code node}, written straight to bytes (no String in between: this is every
     * response), by {@link TreeWriter} or, for a node type it does not cover, by Jackson: the same
     * bytes either way. A lone surrogate (only ever echoed from input) is written as its JSON escape.
     */
    static byte[] write(JsonNode node) {
        ResponseBuffer out = BUFFERS.get();
        out.reset();
        if (TreeWriter.write(node, out)) {
            return out.toByteArray();
        }
        out.reset();
        try (JsonGenerator generator = MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
            MAPPER.writeTree(generator, node);
        } catch (Exception e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        return out.toByteArray();
    }

    /** One per thread: a response is written into it, then copied out once at its exact size. */
    private static final ThreadLocal<ResponseBuffer> BUFFERS = ThreadLocal.withInitial(ResponseBuffer::new);

    private static ApiException serialization(String message) {
        return new ApiException("SerializationException", message);
    }
}
