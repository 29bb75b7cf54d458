package io.hikyaku.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;

import java.nio.charset.StandardCharsets;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.form;
import static io.hikyaku.protocol.Http.request;
import static io.hikyaku.protocol.Http.tree;
import static io.hikyaku.protocol.Http.utf8;
import static io.hikyaku.protocol.Http.xml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Query/XML: transport details, malformed input and error encoding. */
class QueryProtocolTest {

    @Test
    void getWithQueryStringOnAQueueUrl() {
        ApiRequest request = CODEC.decode(request("GET", "/000000000000/q",
                "Action=SendMessage&MessageBody=Your%20message%20text&Version=2012-11-05", null));
        assertEquals("SendMessage", request.action());
        assertEquals(WireProtocol.QUERY, request.protocol());
        assertEquals("/000000000000/q", request.path());
        assertEquals(tree("{\"MessageBody\":\"Your message text\"}"), request.input());
    }

    @Test
    void bodyAndQueryStringMergeAndTheBodyWins() {
        ApiRequest request = CODEC.decode(request("POST", "/", "Action=ListQueues&QueueNamePrefix=fromQuery&MaxResults=3",
                utf8("QueueNamePrefix=fromBody"), "Content-Type", "application/x-www-form-urlencoded"));
        assertEquals("ListQueues", request.action());
        assertEquals(tree("{\"QueueNamePrefix\":\"fromBody\",\"MaxResults\":\"3\"}"), request.input());
    }

    @Test
    void aBodyWithoutContentTypeIsReadAsAForm() {
        ApiRequest request = CODEC.decode(request("POST", "/", "", utf8("Action=ListQueues&QueueNamePrefix=p")));
        assertEquals(tree("{\"QueueNamePrefix\":\"p\"}"), request.input());
    }

    @Test
    void percentDecodingIsUtf8() {
        ApiRequest request = CODEC.decode(form("Action=SendMessage&MessageBody=%E4%B8%AD+%F0%9F%98%80%26%3D%2B&QueueUrl=u"));
        assertEquals("\u4e2d \ud83d\ude00&=+", request.input().get("MessageBody").asText());
        ApiRequest raw = CODEC.decode(request("POST", "/", "", utf8("Action=SendMessage&MessageBody=\u00e9t\u00e9"),
                "Content-Type", "application/x-www-form-urlencoded"));
        assertEquals("\u00e9t\u00e9", raw.input().get("MessageBody").asText(), "raw UTF-8 bytes are accepted too");
    }

    @Test
    void acceptJsonIsRecorded() {
        assertTrue(CODEC.decode(request("GET", "/", "Action=ListQueues&Version=2012-11-05", null,
                "Accept", "application/json")).acceptJson());
        assertFalse(CODEC.decode(request("GET", "/", "Action=ListQueues", null, "Accept", "text/xml")).acceptJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Action=SendMessage&MessageBody=%", "Action=SendMessage&MessageBody=%4", "Action=SendMessage&MessageBody=%G1",
            "Action=SendMessage&MessageBody=%C3%28", "Action=SendMessage&MessageBody=%C0%AF", "Action=SendMessage&MessageBody=%ED%A0%80",
            "Action=SendMessage&MessageBody=%E4%B8"})
    void badPercentEncodingOrUtf8IsAClientError(String body) {
        HttpResponseData response = Http.decodeError(form(body));
        assertQueryError(response, 400, "MalformedQueryString");
    }

    @Test
    void badUtf8BytesInTheBodyOrQueryStringAreClientErrors() {
        byte[] body = {'A', 'c', 't', 'i', 'o', 'n', '=', 'L', 'i', 's', 't', 'Q', 'u', 'e', 'u', 'e', 's', '&', 'x', '=', (byte) 0xFF};
        assertQueryError(Http.decodeError(request("POST", "/", "", body, "Content-Type", "application/x-www-form-urlencoded")),
                400, "MalformedQueryString");
        assertQueryError(Http.decodeError(request("GET", "/", "Action=ListQueues&QueueNamePrefix=%FF", null)),
                400, "MalformedQueryString");
    }

    @Test
    void unknownActionIsInvalidAction() {
        // Behaviour 70.
        HttpResponseData response = Http.decodeError(form("Action=FooBar&Version=2012-11-05"));
        Document doc = assertQueryError(response, 400, "InvalidAction");
        assertEquals("The action FooBar is not valid for this endpoint.", text(doc, "Message"));
    }

    @Test
    void serviceLevelActionsOnAQueueUrlAreInvalidActions() {
        // Behaviour 71.
        for (String action : new String[] {"CreateQueue", "ListQueues", "GetQueueUrl"}) {
            HttpResponseData response = Http.decodeError(request("GET", "/000000000000/q", "Action=" + action + "&QueueName=q", null));
            Document doc = assertQueryError(response, 400, "InvalidAction");
            assertEquals("The action " + action + " is not valid for this endpoint.", text(doc, "Message"));
        }
        HttpResponseData json = Http.decodeError(request("GET", "/000000000000/q", "Action=ListQueues", null,
                "Accept", "application/json"));
        assertEquals(400, json.status());
        assertEquals("application/json", json.headers().get("Content-Type"));
        assertEquals(tree("{\"Error\":{\"Code\":\"InvalidAction\","
                + "\"Message\":\"The action ListQueues is not valid for this endpoint.\"}}"), tree(json));
        assertEquals("req-1", json.headers().get("x-amzn-RequestId"));
    }

    @Test
    void queueActionsOnAQueueUrlWithoutParametersReachTheApi() {
        // Behaviour 72: the api answers MissingParameter for the missing MessageBody.
        ApiRequest request = CODEC.decode(request("GET", "/000000000000/q", "Action=SendMessage", null));
        assertEquals(tree("{}"), request.input());
        HttpResponseData response = CODEC.encodeError(null, request,
                new ApiException("MissingRequiredParameterException", "The request must contain the parameter MessageBody."), "r");
        Document doc = xml(response);
        assertEquals("MissingParameter", text(doc, "Code"));
        assertEquals(400, response.status());
    }

    @Test
    void noActionOnAQueueUrlIsA404UnknownOperationEvenForJson() {
        // Behaviour 73.
        for (String accept : new String[] {"text/xml", "application/json"}) {
            HttpResponseData response = Http.decodeError(request("GET", "/000000000000/q", "", null, "Accept", accept));
            assertEquals(404, response.status());
            assertEquals("<UnknownOperationException/>", Http.text(response));
            assertEquals("UnknownOperationException", xml(response).getDocumentElement().getLocalName());
        }
    }

    @Test
    void noActionOnTheRootIsMissingAction() {
        HttpResponseData response = Http.decodeError(request("GET", "/", "", null));
        Document doc = assertQueryError(response, 400, "MissingAction");
        assertEquals("The request must contain the parameter Action.", text(doc, "Message"));
        assertQueryError(Http.decodeError(form("Action=&Version=2012-11-05")), 400, "MissingAction");
    }

    @Test
    void queueDoesNotExistUsesTheQueryWording() {
        // Behaviour 1.
        ApiRequest request = CODEC.decode(form("Action=GetQueueUrl&QueueName=nope"));
        HttpResponseData response = CODEC.encodeError(null, request,
                new ApiException("QueueDoesNotExist", "The specified queue does not exist."), "rid");
        Document doc = assertQueryError(response, 400, "AWS.SimpleQueueService.NonExistentQueue");
        assertEquals("The specified queue does not exist for this wsdl version.", text(doc, "Message"));
        assertEquals("rid", text(doc, "RequestId"));
        assertEquals("rid", response.headers().get("x-amzn-RequestId"));
    }

    @Test
    void errorXmlHasTheAwsLayout() {
        ApiRequest request = CODEC.decode(form("Action=PurgeQueue&QueueUrl=u"));
        HttpResponseData response = CODEC.encodeError(null, request,
                new ApiException("PurgeQueueInProgress", "Only one PurgeQueue operation on q is allowed every 60 seconds."), "rid");
        assertEquals(403, response.status());
        assertEquals("text/xml", response.headers().get("Content-Type"));
        Document doc = xml(response);
        assertEquals(QueryXmlEncoder.NAMESPACE, doc.getDocumentElement().getNamespaceURI());
        assertEquals("ErrorResponse[Error[Type=Sender,Code=AWS.SimpleQueueService.PurgeQueueInProgress,"
                + "Message=Only one PurgeQueue operation on q is allowed every 60 seconds.,Detail=],RequestId=rid]",
                Dom.render(doc.getDocumentElement()));
        HttpResponseData internal = CODEC.encodeError(null, request, new ApiException("InternalError", "<boom & \r>"), "rid");
        Document internalDoc = xml(internal);
        assertEquals(500, internal.status());
        assertEquals("Receiver", text(internalDoc, "Type"));
        assertEquals("<boom & \r>", text(internalDoc, "Message"));
    }

    @Test
    void errorsBeforeDecodingFollowTheRawRequestsAcceptHeader() {
        HttpResponseData response = Http.decodeError(request("GET", "/", "Action=Nope", null, "Accept", "application/json"));
        assertEquals("application/json", response.headers().get("Content-Type"));
        assertEquals("InvalidAction", tree(response).at("/Error/Code").asText());
    }

    @Test
    void hugeIndexesAreOrderedWithoutAllocatingAndOverlongOnesAreIgnored() {
        ApiRequest request = CODEC.decode(form("Action=SetQueueAttributes&QueueUrl=u"
                + "&Attribute.999999999.Name=VisibilityTimeout&Attribute.999999999.Value=9"
                + "&Attribute.1.Name=DelaySeconds&Attribute.1.Value=1"
                + "&Attribute.9999999999.Name=Ignored&Attribute.9999999999.Value=x"
                + "&Attribute.-1.Name=Neg&Attribute.-1.Value=x&Attribute.01.Name=Lead&Attribute.01.Value=x"
                + "&Attribute.0.Name=Zero&Attribute.0.Value=x&Attribute.x.Name=X&Attribute.x.Value=x"));
        assertEquals(tree("{\"QueueUrl\":\"u\",\"Attributes\":{\"DelaySeconds\":\"1\",\"VisibilityTimeout\":\"9\"}}"),
                request.input());
    }

    /** A message attribute under index 0, -1 or 14 digits names no list item: ignored like any unknown parameter. */
    @Test
    void messageAttributesUnderIndexesThatNameNoItemAreIgnored() {
        ApiRequest request = CODEC.decode(form("Action=SendMessage&QueueUrl=u&MessageBody=b"
                + "&MessageAttribute.0.Name=zero&MessageAttribute.0.Value.DataType=String&MessageAttribute.0.Value.StringValue=z"
                + "&MessageAttribute.-1.Name=neg&MessageAttribute.-1.Value.DataType=String&MessageAttribute.-1.Value.StringValue=n"
                + "&MessageAttribute.12345678901234.Name=big&MessageAttribute.12345678901234.Value.DataType=String"
                + "&MessageAttribute.12345678901234.Value.StringValue=g"
                + "&MessageAttribute.1.Name=kept&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=k"));
        assertEquals(tree("{\"kept\":{\"DataType\":\"String\",\"StringValue\":\"k\"}}"),
                request.input().get("MessageAttributes"));
    }

    @Test
    void gapsAreClosedAndOrderFollowsTheIndex() {
        ApiRequest request = CODEC.decode(form("Action=GetQueueAttributes&QueueUrl=u"
                + "&AttributeName.7=C&AttributeName.2=B&AttributeName.10=D&AttributeName.1=A"));
        assertEquals(tree("[\"A\",\"B\",\"C\",\"D\"]"), request.input().get("AttributeNames"));
        ApiRequest batch = CODEC.decode(form("Action=DeleteMessageBatch&QueueUrl=u"
                + "&DeleteMessageBatchRequestEntry.3.Id=c&DeleteMessageBatchRequestEntry.3.ReceiptHandle=r3"
                + "&DeleteMessageBatchRequestEntry.1.Id=a&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r1"));
        assertEquals(tree("[{\"Id\":\"a\",\"ReceiptHandle\":\"r1\"},{\"Id\":\"c\",\"ReceiptHandle\":\"r3\"}]"),
                batch.input().get("Entries"));
    }

    @Test
    void aRepeatedParameterKeepsItsLastValue() {
        ApiRequest request = CODEC.decode(form("Action=GetQueueAttributes&QueueUrl=u&AttributeName.1=A&AttributeName.1=B"));
        assertEquals(tree("[\"B\"]"), request.input().get("AttributeNames"));
        ApiRequest sameKey = CODEC.decode(form("Action=TagQueue&QueueUrl=u&Tag.1.Key=k&Tag.1.Value=1&Tag.2.Key=k&Tag.2.Value=2"));
        assertEquals(tree("{\"k\":\"2\"}"), sameKey.input().get("Tags"), "a key named twice keeps the later entry");
    }

    @Test
    void aMissingValueIsEmptyAndAMissingNameIsAMissingParameter() {
        ApiRequest request = CODEC.decode(form("Action=TagQueue&QueueUrl=u&Tag.1.Key=k"));
        assertEquals(tree("{\"k\":\"\"}"), request.input().get("Tags"));
        ApiRequest attribute = CODEC.decode(form("Action=SendMessage&QueueUrl=u&MessageBody=b&MessageAttribute.1.Name=A"));
        assertEquals(tree("{\"A\":{}}"), attribute.input().get("MessageAttributes"), "the api reports the missing DataType");
        HttpResponseData response = Http.decodeError(form("Action=SetQueueAttributes&QueueUrl=u&Attribute.1.Value=5"));
        Document doc = assertQueryError(response, 400, "MissingParameter");
        assertEquals("The request must contain the parameter Attribute.1.Name.", text(doc, "Message"));
    }

    @Test
    void manyParametersStayFast() {
        // Linear, not quadratic, judged by how the cost grows (10x the entries: ~10x the time if linear,
        // ~100x if quadratic), best of three each, so a loaded machine does not decide it.
        long small = bestDecodeNanos(2_000);
        long large = bestDecodeNanos(20_000);
        assertTrue(large < 40 * Math.max(small, 1_000_000L), "linear, not quadratic: 2,000 entries " + small / 1000
                + " us, 20,000 entries " + large / 1000 + " us");
    }

    private static long bestDecodeNanos(int entries) {
        StringBuilder body = new StringBuilder("Action=SendMessageBatch&QueueUrl=u");
        for (int i = 1; i <= entries; i++) {
            body.append("&SendMessageBatchRequestEntry.").append(i).append(".Id=e").append(i)
                    .append("&SendMessageBatchRequestEntry.").append(i).append(".MessageBody=b");
        }
        String form = body.toString();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            ApiRequest request = CODEC.decode(form(form));
            best = Math.min(best, System.nanoTime() - start);
            assertEquals(entries, request.input().get("Entries").size());
        }
        return best;
    }

    @Test
    void responsesAreUtf8() {
        ApiRequest request = CODEC.decode(form("Action=GetQueueUrl&QueueName=q"));
        HttpResponseData response = CODEC.encodeResult(request, Http.object("{\"QueueUrl\":\"http://h/0/\u00e9\"}"), "r");
        assertTrue(new String(response.body(), StandardCharsets.UTF_8).contains("<QueueUrl>http://h/0/\u00e9</QueueUrl>"));
        assertTrue(Http.text(response).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    }

    private static Document assertQueryError(HttpResponseData response, int status, String code) {
        assertEquals(status, response.status());
        assertEquals("text/xml", response.headers().get("Content-Type"));
        Document doc = xml(response);
        assertEquals("ErrorResponse", doc.getDocumentElement().getLocalName());
        assertEquals(QueryXmlEncoder.NAMESPACE, doc.getDocumentElement().getNamespaceURI());
        assertEquals(code, text(doc, "Code"));
        assertEquals("Sender", text(doc, "Type"));
        return doc;
    }

    private static String text(Document doc, String element) {
        return doc.getElementsByTagNameNS(QueryXmlEncoder.NAMESPACE, element).item(0).getTextContent();
    }
}
