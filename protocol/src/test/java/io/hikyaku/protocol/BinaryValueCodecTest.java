package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.form;
import static io.hikyaku.protocol.Http.json;
import static io.hikyaku.protocol.Http.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Blobs (MessageAttributeValue BinaryValue / BinaryListValues): the Query codec checks the base64 of
 * form values and hands the api canonical base64; a bad one is InvalidParameterValue naming the
 * parameter. Over JSON the codec passes blobs through (the api decodes them, as Coral does) and
 * encodes the api's SerializationException with Coral's __type.
 */
class BinaryValueCodecTest {

    private static final String SEND = "Action=SendMessage&QueueUrl=u&MessageBody=b"
            + "&MessageAttribute.1.Name=blob&MessageAttribute.1.Value.DataType=Binary&MessageAttribute.1.Value.BinaryValue=";

    private static JsonNode blobOf(String formValue) {
        return CODEC.decode(form(SEND + formValue)).input().at("/MessageAttributes/blob/BinaryValue");
    }

    @Test
    void queryBlobsBecomeCanonicalPaddedBase64() {
        assertEquals("AQID", blobOf("AQID").asText());
        assertEquals("AQ==", blobOf("AQ%3D%3D").asText());
        assertEquals("AQ==", blobOf("AQ").asText());          // padding may be left out
        assertEquals("AQI=", blobOf("AQI").asText());
        assertEquals("AQIDBA==", blobOf("AQID%0D%0ABA%3D%3D").asText()); // MIME line breaks are skipped
        assertEquals("+/8=", blobOf("%2B%2F8%3D").asText());
        assertEquals("", blobOf("").asText());                // empty: the api refuses it as an empty value
        assertEquals("", blobOf("A").asText());               // one character holds no byte: empty too
    }

    @ParameterizedTest
    @ValueSource(strings = {"not*base64%21", "AQ+D", "AQ%20D", "AQ-_", "AQ%3D%3DAQ%3D%3D", "%3DAQI", "AQIDB",
            "A%C3%A9ID", "AQ%3D%3D%3D", "%09AQID"})
    void invalidQueryBlobsAreInvalidParameterValue(String formValue) {
        ApiException e = Http.decodeException(form(SEND + formValue));
        assertEquals("InvalidParameterValue", e.errorType());
        assertEquals("Value for parameter MessageAttribute.1.Value.BinaryValue is invalid. "
                + "Reason: the value is not valid base64.", e.getMessage());
    }

    @Test
    void theErrorNamesTheParameterInBatchesSystemAttributesAndLists() {
        ApiException batch = Http.decodeException(form("Action=SendMessageBatch&QueueUrl=u"
                + "&SendMessageBatchRequestEntry.1.Id=ok&SendMessageBatchRequestEntry.1.MessageBody=fine"
                + "&SendMessageBatchRequestEntry.2.Id=bad&SendMessageBatchRequestEntry.2.MessageBody=b"
                + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Name=blob"
                + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType=Binary"
                + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.BinaryValue=%21%21"));
        assertEquals("InvalidParameterValue", batch.errorType());
        assertEquals("Value for parameter SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.BinaryValue is invalid. "
                + "Reason: the value is not valid base64.", batch.getMessage());

        ApiException system = Http.decodeException(form("Action=SendMessage&QueueUrl=u&MessageBody=b"
                + "&MessageSystemAttribute.1.Name=AWSTraceHeader&MessageSystemAttribute.1.Value.DataType=Binary"
                + "&MessageSystemAttribute.1.Value.BinaryValue=%2A"));
        assertEquals("Value for parameter MessageSystemAttribute.1.Value.BinaryValue is invalid. "
                + "Reason: the value is not valid base64.", system.getMessage());

        ApiException list = Http.decodeException(form("Action=SendMessage&QueueUrl=u&MessageBody=b"
                + "&MessageAttribute.1.Name=l&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=x"
                + "&MessageAttribute.1.Value.BinaryListValue.1=AQ%3D%3D&MessageAttribute.1.Value.BinaryListValue.2=%3F%3F"));
        assertEquals("Value for parameter MessageAttribute.1.Value.BinaryListValue.2 is invalid. "
                + "Reason: the value is not valid base64.", list.getMessage());

        JsonNode ok = CODEC.decode(form("Action=SendMessage&QueueUrl=u&MessageBody=b"
                + "&MessageAttribute.1.Name=l&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=x"
                + "&MessageAttribute.1.Value.BinaryListValue.1=AQ&MessageAttribute.1.Value.BinaryListValue.2=AQID")).input();
        assertEquals(tree("[\"AQ==\",\"AQID\"]"), ok.at("/MessageAttributes/l/BinaryListValues"));
    }

    @Test
    void queryBlobErrorIsA400SenderInvalidParameterValue() {
        Document xml = Http.xml(Http.decodeError(form(SEND + "%21%21%21%21")));
        assertEquals("Sender", xml.getElementsByTagName("Type").item(0).getTextContent());
        assertEquals("InvalidParameterValue", xml.getElementsByTagName("Code").item(0).getTextContent());
        assertEquals(400, Http.decodeError(form(SEND + "%21%21%21%21")).status());
    }

    @Test
    void jsonBlobsPassThroughForTheApiToDecode() {
        ApiRequest request = CODEC.decode(json("SendMessage", "{\"MessageAttributes\":{\"blob\":"
                + "{\"DataType\":\"Binary\",\"BinaryValue\":\"not*base64!\"}}}"));
        assertEquals("not*base64!", request.input().at("/MessageAttributes/blob/BinaryValue").asText());
    }

    @Test
    void jsonSerializationExceptionFromTheApiIsCoralsType() {
        ApiRequest request = CODEC.decode(json("SendMessage", "{}"));
        HttpResponseData response = CODEC.encodeError(null, request,
                new ApiException("SerializationException", "Base64 encoded value is not valid"), "req-1");
        assertEquals(400, response.status());
        JsonNode body = tree(response);
        assertEquals("com.amazon.coral.service#SerializationException", body.get("__type").asText());
        assertEquals("Base64 encoded value is not valid", body.get("message").asText());
        assertNull(response.headers().get("x-amzn-query-error")); // a Coral framework error has no Query code
        assertFalse(response.headers().containsKey("x-amzn-query-error"));
    }

    @Test
    void binaryValuesAreStillWrittenAsTextInXml() {
        ApiRequest request = CODEC.decode(form("Action=ReceiveMessage&QueueUrl=u"));
        HttpResponseData response = CODEC.encodeResult(request, Http.object("{\"Messages\":[{\"MessageId\":\"m\","
                + "\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQ==\"}}}]}"), "req-1");
        assertEquals("AQ==", Http.xml(response).getElementsByTagName("BinaryValue").item(0).getTextContent());
    }
}
