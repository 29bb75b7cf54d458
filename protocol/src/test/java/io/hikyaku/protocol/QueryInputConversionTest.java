package io.hikyaku.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.form;
import static io.hikyaku.protocol.Http.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Query parameters become the JSON 1.0 input shape, for every one of the 23 actions. */
class QueryInputConversionTest {

    private static final String Q = "QueueUrl=http%3A%2F%2Flocalhost%2F000000000000%2Fq&";
    private static final String QJ = "'QueueUrl':'http://localhost/000000000000/q',";

    static Stream<Arguments> actions() {
        return Stream.of(
                Arguments.of("AddPermission", Q + "Label=L&AWSAccountId.1=111&AWSAccountId.2=222&ActionName.1=SendMessage&ActionName.2=ReceiveMessage",
                        "{" + QJ + "'Label':'L','AWSAccountIds':['111','222'],'Actions':['SendMessage','ReceiveMessage']}"),
                Arguments.of("CancelMessageMoveTask", "TaskHandle=abc%3D%3D", "{'TaskHandle':'abc=='}"),
                Arguments.of("ChangeMessageVisibility", Q + "ReceiptHandle=rh%2B1&VisibilityTimeout=60",
                        "{" + QJ + "'ReceiptHandle':'rh+1','VisibilityTimeout':'60'}"),
                Arguments.of("ChangeMessageVisibilityBatch", Q
                                + "ChangeMessageVisibilityBatchRequestEntry.1.Id=a&ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle=r1"
                                + "&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=10"
                                + "&ChangeMessageVisibilityBatchRequestEntry.2.Id=b&ChangeMessageVisibilityBatchRequestEntry.2.ReceiptHandle=r2",
                        "{" + QJ + "'Entries':[{'Id':'a','ReceiptHandle':'r1','VisibilityTimeout':'10'},{'Id':'b','ReceiptHandle':'r2'}]}"),
                Arguments.of("CreateQueue", "QueueName=orders&Attribute.1.Name=DelaySeconds&Attribute.1.Value=5"
                                + "&Attribute.2.Name=VisibilityTimeout&Attribute.2.Value=40&Tag.1.Key=team&Tag.1.Value=core",
                        "{'QueueName':'orders','Attributes':{'DelaySeconds':'5','VisibilityTimeout':'40'},'tags':{'team':'core'}}"),
                Arguments.of("DeleteMessage", Q + "ReceiptHandle=rh", "{" + QJ + "'ReceiptHandle':'rh'}"),
                Arguments.of("DeleteMessageBatch", Q + "DeleteMessageBatchRequestEntry.1.Id=a&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r1",
                        "{" + QJ + "'Entries':[{'Id':'a','ReceiptHandle':'r1'}]}"),
                Arguments.of("DeleteQueue", Q, "{" + QJ.substring(0, QJ.length() - 1) + "}"),
                Arguments.of("GetQueueAttributes", Q + "AttributeName.1=All&AttributeName.2=QueueArn",
                        "{" + QJ + "'AttributeNames':['All','QueueArn']}"),
                Arguments.of("GetQueueUrl", "QueueName=q&QueueOwnerAWSAccountId=000000000000",
                        "{'QueueName':'q','QueueOwnerAWSAccountId':'000000000000'}"),
                Arguments.of("ListDeadLetterSourceQueues", Q + "MaxResults=10&NextToken=t",
                        "{" + QJ + "'MaxResults':'10','NextToken':'t'}"),
                Arguments.of("ListMessageMoveTasks", "SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq&MaxResults=5",
                        "{'SourceArn':'arn:aws:sqs:us-east-1:000000000000:dlq','MaxResults':'5'}"),
                Arguments.of("ListQueueTags", Q, "{" + QJ.substring(0, QJ.length() - 1) + "}"),
                Arguments.of("ListQueues", "QueueNamePrefix=or&MaxResults=2&NextToken=n",
                        "{'QueueNamePrefix':'or','MaxResults':'2','NextToken':'n'}"),
                Arguments.of("PurgeQueue", Q, "{" + QJ.substring(0, QJ.length() - 1) + "}"),
                Arguments.of("ReceiveMessage", Q + "AttributeName.1=All&MessageSystemAttributeName.1=SenderId"
                                + "&MessageAttributeName.1=Hel.*&MessageAttributeName.2=Foo&MaxNumberOfMessages=10"
                                + "&VisibilityTimeout=30&WaitTimeSeconds=20&ReceiveRequestAttemptId=att",
                        "{" + QJ + "'AttributeNames':['All'],'MessageSystemAttributeNames':['SenderId'],"
                                + "'MessageAttributeNames':['Hel.*','Foo'],'MaxNumberOfMessages':'10',"
                                + "'VisibilityTimeout':'30','WaitTimeSeconds':'20','ReceiveRequestAttemptId':'att'}"),
                Arguments.of("RemovePermission", Q + "Label=L", "{" + QJ + "'Label':'L'}"),
                Arguments.of("SendMessage", Q + "MessageBody=hello+world%0D%0A&DelaySeconds=3"
                                + "&MessageAttribute.1.Name=Foo&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=Bar"
                                + "&MessageAttribute.2.Name=Bin&MessageAttribute.2.Value.DataType=Binary&MessageAttribute.2.Value.BinaryValue=AAE%3D"
                                + "&MessageSystemAttribute.1.Name=AWSTraceHeader&MessageSystemAttribute.1.Value.DataType=String"
                                + "&MessageSystemAttribute.1.Value.StringValue=Root%3D1"
                                + "&MessageDeduplicationId=d&MessageGroupId=g",
                        "{" + QJ + "'MessageBody':'hello world\\r\\n','DelaySeconds':'3',"
                                + "'MessageAttributes':{'Foo':{'DataType':'String','StringValue':'Bar'},'Bin':{'DataType':'Binary','BinaryValue':'AAE='}},"
                                + "'MessageSystemAttributes':{'AWSTraceHeader':{'DataType':'String','StringValue':'Root=1'}},"
                                + "'MessageDeduplicationId':'d','MessageGroupId':'g'}"),
                Arguments.of("SendMessageBatch", Q
                                + "SendMessageBatchRequestEntry.1.Id=m1&SendMessageBatchRequestEntry.1.MessageBody=b1"
                                + "&SendMessageBatchRequestEntry.1.DelaySeconds=1"
                                + "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=A"
                                + "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=Number"
                                + "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=7"
                                + "&SendMessageBatchRequestEntry.1.MessageSystemAttribute.1.Name=AWSTraceHeader"
                                + "&SendMessageBatchRequestEntry.1.MessageSystemAttribute.1.Value.DataType=String"
                                + "&SendMessageBatchRequestEntry.1.MessageSystemAttribute.1.Value.StringValue=t"
                                + "&SendMessageBatchRequestEntry.2.Id=m2&SendMessageBatchRequestEntry.2.MessageBody=b2"
                                + "&SendMessageBatchRequestEntry.2.MessageGroupId=g&SendMessageBatchRequestEntry.2.MessageDeduplicationId=d",
                        "{" + QJ + "'Entries':[{'Id':'m1','MessageBody':'b1','DelaySeconds':'1',"
                                + "'MessageAttributes':{'A':{'DataType':'Number','StringValue':'7'}},"
                                + "'MessageSystemAttributes':{'AWSTraceHeader':{'DataType':'String','StringValue':'t'}}},"
                                + "{'Id':'m2','MessageBody':'b2','MessageGroupId':'g','MessageDeduplicationId':'d'}]}"),
                Arguments.of("SetQueueAttributes", Q + "Attribute.1.Name=RedrivePolicy&Attribute.1.Value=",
                        "{" + QJ + "'Attributes':{'RedrivePolicy':''}}"),
                Arguments.of("StartMessageMoveTask", "SourceArn=s&DestinationArn=d&MaxNumberOfMessagesPerSecond=50",
                        "{'SourceArn':'s','DestinationArn':'d','MaxNumberOfMessagesPerSecond':'50'}"),
                Arguments.of("TagQueue", Q + "Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=",
                        "{" + QJ + "'Tags':{'a':'1','b':''}}"),
                Arguments.of("TagQueue", Q + "Tags.1.Key=a&Tags.1.Value=1",
                        "{" + QJ + "'Tags':{'a':'1'}}"),
                Arguments.of("UntagQueue", Q + "TagKey.1=a&TagKey.2=b", "{" + QJ + "'TagKeys':['a','b']}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actions")
    void convertsQueryParametersToJsonInput(String action, String params, String expected) {
        ApiRequest request = CODEC.decode(form("Action=" + action + "&Version=2012-11-05&" + params));
        assertEquals(action, request.action());
        assertEquals(WireProtocol.QUERY, request.protocol());
        assertEquals(tree(expected.replace('\'', '"')), request.input());
    }

    @Test
    void everyActionOfTheModelIsCovered() {
        Set<String> tested = actions().map(a -> (String) a.get()[0]).collect(Collectors.toSet());
        assertEquals(QueryModel.INPUTS.keySet(), tested);
        assertEquals(23, tested.size());
    }

    @Test
    void messageAttributeListValuesBecomeLists() {
        ApiRequest request = CODEC.decode(form("Action=SendMessage&MessageBody=x"
                + "&MessageAttribute.1.Name=L&MessageAttribute.1.Value.DataType=String"
                + "&MessageAttribute.1.Value.StringListValue.2=b&MessageAttribute.1.Value.StringListValue.1=a"
                + "&MessageAttribute.1.Value.BinaryListValue.1=AA%3D%3D"));
        assertEquals(tree("{\"MessageBody\":\"x\",\"MessageAttributes\":{\"L\":{\"DataType\":\"String\","
                + "\"StringListValues\":[\"a\",\"b\"],\"BinaryListValues\":[\"AA==\"]}}}"), request.input());
    }

    @Test
    void nonFlattenedListsFromJsonModelClientsAreAccepted() {
        ApiRequest request = CODEC.decode(form("Action=ReceiveMessage&QueueUrl=u"
                + "&MessageSystemAttributeNames.member.2=SentTimestamp&MessageSystemAttributeNames.member.1=SenderId"));
        assertEquals(tree("{\"QueueUrl\":\"u\",\"MessageSystemAttributeNames\":[\"SenderId\",\"SentTimestamp\"]}"),
                request.input());
    }

    @Test
    void anEmptyListMarkerBecomesAnEmptyList() {
        // botocore sends an empty list as "Entries=" (its member name with an empty value).
        ApiRequest request = CODEC.decode(form("Action=SendMessageBatch&QueueUrl=u&Entries="));
        assertEquals(tree("{\"QueueUrl\":\"u\",\"Entries\":[]}"), request.input());
    }

    @Test
    void signatureAndUnknownParametersAreIgnored() {
        ApiRequest request = CODEC.decode(form("Action=ListQueues&Version=2012-11-05&AWSAccessKeyId=AK"
                + "&Signature=x&SignatureVersion=2&Timestamp=t&X-Amz-Date=d&Bogus=1"));
        assertEquals(tree("{}"), request.input());
    }
}
