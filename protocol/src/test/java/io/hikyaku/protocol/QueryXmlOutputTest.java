package io.hikyaku.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.object;
import static io.hikyaku.protocol.Http.xml;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** JSON 1.0 results become Query XML responses, for every one of the 23 actions. */
class QueryXmlOutputTest {

    private static final String META = "ResponseMetadata[RequestId=rid]";

    static Stream<Arguments> actions() {
        return Stream.of(
                Arguments.of("AddPermission", "{}", "AddPermissionResponse[" + META + "]"),
                Arguments.of("CancelMessageMoveTask", "{'ApproximateNumberOfMessagesMoved':12}",
                        "CancelMessageMoveTaskResponse[CancelMessageMoveTaskResult[ApproximateNumberOfMessagesMoved=12]," + META + "]"),
                Arguments.of("ChangeMessageVisibility", "{}", "ChangeMessageVisibilityResponse[" + META + "]"),
                Arguments.of("ChangeMessageVisibilityBatch",
                        "{'Successful':[{'Id':'a'}],'Failed':[{'Id':'b','SenderFault':true,'Code':'ReceiptHandleIsInvalid','Message':'bad'}]}",
                        "ChangeMessageVisibilityBatchResponse[ChangeMessageVisibilityBatchResult["
                                + "ChangeMessageVisibilityBatchResultEntry[Id=a],"
                                + "BatchResultErrorEntry[Id=b,SenderFault=true,Code=ReceiptHandleIsInvalid,Message=bad]]," + META + "]"),
                Arguments.of("CreateQueue", "{'QueueUrl':'http://h/0/q'}",
                        "CreateQueueResponse[CreateQueueResult[QueueUrl=http://h/0/q]," + META + "]"),
                Arguments.of("DeleteMessage", "{}", "DeleteMessageResponse[" + META + "]"),
                Arguments.of("DeleteMessageBatch", "{'Successful':[{'Id':'a'},{'Id':'b'}],'Failed':[]}",
                        "DeleteMessageBatchResponse[DeleteMessageBatchResult[DeleteMessageBatchResultEntry[Id=a],"
                                + "DeleteMessageBatchResultEntry[Id=b]]," + META + "]"),
                Arguments.of("DeleteQueue", "{}", "DeleteQueueResponse[" + META + "]"),
                Arguments.of("GetQueueAttributes", "{'Attributes':{'DelaySeconds':'0','QueueArn':'arn:aws:sqs:r:0:q'}}",
                        "GetQueueAttributesResponse[GetQueueAttributesResult[Attribute[Name=DelaySeconds,Value=0],"
                                + "Attribute[Name=QueueArn,Value=arn:aws:sqs:r:0:q]]," + META + "]"),
                Arguments.of("GetQueueUrl", "{'QueueUrl':'http://h/0/q'}",
                        "GetQueueUrlResponse[GetQueueUrlResult[QueueUrl=http://h/0/q]," + META + "]"),
                Arguments.of("ListDeadLetterSourceQueues", "{'queueUrls':['u1','u2'],'NextToken':'n'}",
                        "ListDeadLetterSourceQueuesResponse[ListDeadLetterSourceQueuesResult[QueueUrl=u1,QueueUrl=u2,NextToken=n]," + META + "]"),
                Arguments.of("ListMessageMoveTasks",
                        "{'Results':[{'TaskHandle':'h','Status':'RUNNING','SourceArn':'s','DestinationArn':'d',"
                                + "'MaxNumberOfMessagesPerSecond':5,'ApproximateNumberOfMessagesMoved':1,"
                                + "'ApproximateNumberOfMessagesToMove':9,'StartedTimestamp':1700000000000},"
                                + "{'Status':'FAILED','SourceArn':'s','FailureReason':'why','ApproximateNumberOfMessagesMoved':0,'StartedTimestamp':1}]}",
                        "ListMessageMoveTasksResponse[ListMessageMoveTasksResult["
                                + "Result[TaskHandle=h,Status=RUNNING,SourceArn=s,DestinationArn=d,MaxNumberOfMessagesPerSecond=5,"
                                + "ApproximateNumberOfMessagesMoved=1,ApproximateNumberOfMessagesToMove=9,StartedTimestamp=1700000000000],"
                                + "Result[Status=FAILED,SourceArn=s,ApproximateNumberOfMessagesMoved=0,FailureReason=why,StartedTimestamp=1]]," + META + "]"),
                Arguments.of("ListQueueTags", "{'Tags':{'team':'core'}}",
                        "ListQueueTagsResponse[ListQueueTagsResult[Tag[Key=team,Value=core]]," + META + "]"),
                Arguments.of("ListQueues", "{'QueueUrls':['u1','u2']}",
                        "ListQueuesResponse[ListQueuesResult[QueueUrl=u1,QueueUrl=u2]," + META + "]"),
                Arguments.of("PurgeQueue", "{}", "PurgeQueueResponse[" + META + "]"),
                Arguments.of("ReceiveMessage",
                        "{'Messages':[{'MessageId':'m','ReceiptHandle':'r','MD5OfBody':'5','Body':'b',"
                                + "'Attributes':{'SenderId':'s','SentTimestamp':'1'},'MD5OfMessageAttributes':'6',"
                                + "'MessageAttributes':{'Foo':{'StringValue':'Bar','DataType':'String'},'Bin':{'BinaryValue':'AAE=','DataType':'Binary'}}}]}",
                        "ReceiveMessageResponse[ReceiveMessageResult[Message[MessageId=m,ReceiptHandle=r,MD5OfBody=5,Body=b,"
                                + "Attribute[Name=SenderId,Value=s],Attribute[Name=SentTimestamp,Value=1],MD5OfMessageAttributes=6,"
                                + "MessageAttribute[Name=Foo,Value[StringValue=Bar,DataType=String]],"
                                + "MessageAttribute[Name=Bin,Value[BinaryValue=AAE=,DataType=Binary]]]]," + META + "]"),
                Arguments.of("RemovePermission", "{}", "RemovePermissionResponse[" + META + "]"),
                Arguments.of("SendMessage", "{'MD5OfMessageBody':'a','MD5OfMessageAttributes':'b','MessageId':'m','SequenceNumber':'1'}",
                        "SendMessageResponse[SendMessageResult[MD5OfMessageBody=a,MD5OfMessageAttributes=b,MessageId=m,SequenceNumber=1]," + META + "]"),
                Arguments.of("SendMessageBatch",
                        "{'Successful':[{'Id':'1','MessageId':'m','MD5OfMessageBody':'a'}],"
                                + "'Failed':[{'Id':'2','Code':'InvalidMessageContents','Message':'x','SenderFault':true}]}",
                        "SendMessageBatchResponse[SendMessageBatchResult[SendMessageBatchResultEntry[Id=1,MessageId=m,MD5OfMessageBody=a],"
                                + "BatchResultErrorEntry[Id=2,SenderFault=true,Code=InvalidMessageContents,Message=x]]," + META + "]"),
                Arguments.of("SetQueueAttributes", "{}", "SetQueueAttributesResponse[" + META + "]"),
                Arguments.of("StartMessageMoveTask", "{'TaskHandle':'h'}",
                        "StartMessageMoveTaskResponse[StartMessageMoveTaskResult[TaskHandle=h]," + META + "]"),
                Arguments.of("TagQueue", "{}", "TagQueueResponse[" + META + "]"),
                Arguments.of("UntagQueue", "{}", "UntagQueueResponse[" + META + "]"));
    }

    private static HttpResponseData encode(String action, String resultJson) {
        ApiRequest request = new ApiRequest(action, object("{}"), WireProtocol.QUERY, false, "/");
        return CODEC.encodeResult(request, object(resultJson.replace('\'', '"')), "rid");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actions")
    void encodesResultAsXml(String action, String result, String expected) {
        HttpResponseData response = encode(action, result);
        assertEquals(200, response.status());
        assertEquals("text/xml", response.headers().get("Content-Type"));
        assertEquals("rid", response.headers().get("x-amzn-RequestId"));
        Document doc = xml(response);
        assertEquals(QueryXmlEncoder.NAMESPACE, doc.getDocumentElement().getNamespaceURI());
        assertEquals(expected, Dom.render(doc.getDocumentElement()));
    }

    @Test
    void everyActionIsCovered() {
        Set<String> tested = actions().map(a -> (String) a.get()[0]).collect(Collectors.toSet());
        assertEquals(QueryModel.INPUTS.keySet(), tested);
    }

    @Test
    void emptyResultsStillHaveAResultElement() {
        assertEquals("ReceiveMessageResponse[ReceiveMessageResult=," + META + "]",
                Dom.render(xml(encode("ReceiveMessage", "{}")).getDocumentElement()));
        assertEquals("ListQueuesResponse[ListQueuesResult=," + META + "]",
                Dom.render(xml(encode("ListQueues", "{'QueueUrls':[]}")).getDocumentElement()));
    }

    @Test
    void bodiesKeepCarriageReturnsTabsAndSpecialCharacters() {
        String body = "a\r\nb\tc <&> \"q\" 'x' \u00e9\u4e2d\ud83d\ude00 \r";
        ObjectNodeBuilder messages = new ObjectNodeBuilder();
        HttpResponseData response = CODEC.encodeResult(new ApiRequest("ReceiveMessage", object("{}"), WireProtocol.QUERY, false, "/"),
                messages.message(body), "rid");
        String xmlText = Http.text(response);
        org.junit.jupiter.api.Assertions.assertTrue(xmlText.contains("&#xD;"), xmlText);
        Document doc = xml(response);
        assertEquals(body, doc.getElementsByTagNameNS(QueryXmlEncoder.NAMESPACE, "Body").item(0).getTextContent());
    }

    @Test
    void charactersXmlCannotCarryAreReplacedNotLeakedAsInvalidXml() {
        String body = "x\u0001y\ud800z\uffff";
        HttpResponseData response = CODEC.encodeResult(new ApiRequest("ReceiveMessage", object("{}"), WireProtocol.QUERY, false, "/"),
                new ObjectNodeBuilder().message(body), "rid");
        Document doc = xml(response);
        assertEquals("x\ufffdy\ufffdz\ufffd",
                doc.getElementsByTagNameNS(QueryXmlEncoder.NAMESPACE, "Body").item(0).getTextContent());
    }

    @Test
    void unknownScalarFieldsAreWrittenUnderTheirOwnName() {
        assertEquals("SendMessageResponse[SendMessageResult[MessageId=m,Extra=1]," + META + "]",
                Dom.render(xml(encode("SendMessage", "{'MessageId':'m','Extra':1,'Nested':{'a':1}}")).getDocumentElement()));
    }

    @Test
    void acceptJsonWrapsTheResultInResponseAndResultObjects() {
        ApiRequest request = new ApiRequest("ListQueues", object("{}"), WireProtocol.QUERY, true, "/");
        HttpResponseData response = CODEC.encodeResult(request, object("{\"QueueUrls\":[\"u\"]}"), "rid");
        assertEquals(200, response.status());
        assertEquals("application/json", response.headers().get("Content-Type"));
        assertEquals(Http.tree("{\"ListQueuesResponse\":{\"ListQueuesResult\":{\"QueueUrls\":[\"u\"]},"
                + "\"ResponseMetadata\":{\"RequestId\":\"rid\"}}}"), Http.tree(response));
        ApiRequest delete = new ApiRequest("DeleteMessage", object("{}"), WireProtocol.QUERY, true, "/");
        assertEquals(Http.tree("{\"DeleteMessageResponse\":{\"ResponseMetadata\":{\"RequestId\":\"rid\"}}}"),
                Http.tree(CODEC.encodeResult(delete, object("{}"), "rid")));
    }

    /** Builds a one-message ReceiveMessage result without JSON-escaping pitfalls in the test source. */
    private static final class ObjectNodeBuilder {
        com.fasterxml.jackson.databind.node.ObjectNode message(String body) {
            com.fasterxml.jackson.databind.node.ObjectNode result = Http.JSON.createObjectNode();
            result.putArray("Messages").addObject().put("MessageId", "m").put("Body", body);
            return result;
        }
    }
}
