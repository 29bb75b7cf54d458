package io.hikyaku.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.push.DeclaredMapping;
import io.hikyaku.server.QueueDefinition;
import java.io.StringReader;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SAM template reader: intrinsics, both resource kinds, queues, Globals and the errors. */
class SamTemplateTest {

    private static final String ACCOUNT = "123456789012";
    private static final String REGION = "eu-west-1";

    private static SamTemplate read(String yaml, String... functions) {
        Map<String, Object> t = SamYaml.load(new StringReader(yaml), "template.yaml");
        return SamTemplate.read(t, "template.yaml", Set.of(functions), ACCOUNT, REGION);
    }

    private static final String ORDER_PROCESSOR = """
            AWSTemplateFormatVersion: '2010-09-09'
            Transform: AWS::Serverless-2016-10-31
            Parameters:
              Stage:
                Type: String
                Default: dev
            Globals:
              Function:
                Timeout: 30
                Runtime: python3.12
            Resources:
              OrderProcessor:
                Type: AWS::Serverless::Function
                Properties:
                  CodeUri: src/
                  Handler: app.handler
                  Policies:
                    - SQSPollerPolicy:
                        QueueName: !GetAtt OrdersQueue.QueueName
                  Events:
                    Api:
                      Type: Api
                      Properties: {Path: /orders, Method: post}
                    OrderQueue:
                      Type: SQS
                      Properties:
                        Queue: !GetAtt OrdersQueue.Arn
                        BatchSize: 10
                        MaximumBatchingWindowInSeconds: 0
                        Enabled: true
                        FunctionResponseTypes: [ReportBatchItemFailures]
                        ScalingConfig:
                          MaximumConcurrency: 5
                        FilterCriteria:
                          Filters:
                            - Pattern: '{"body": {"kind": ["order"]}}'
              OrdersQueue:
                Type: AWS::SQS::Queue
                Properties:
                  QueueName: !Sub "orders-${Stage}"
                  VisibilityTimeout: 180
                  RedrivePolicy:
                    deadLetterTargetArn: !GetAtt OrdersDLQ.Arn
                    maxReceiveCount: 5
                  Tags:
                    - Key: team
                      Value: orders
              OrdersDLQ:
                Type: AWS::SQS::Queue
            Outputs:
              QueueUrl:
                Value: !Ref OrdersQueue
            """;

    @Test
    void aSamFunctionsSqsEventBecomesAMappingWithTheTemplatesQueues() {
        SamTemplate t = read(ORDER_PROCESSOR, "OrderProcessor");
        assertThat(t.mappings()).hasSize(1);
        DeclaredMapping m = t.mappings().get(0);
        assertThat(m.origin()).isEqualTo("template.yaml: Resources.OrderProcessor.Properties.Events.OrderQueue");
        assertThat(m.request().toString()).isEqualTo("{\"FunctionName\":\"OrderProcessor\","
                + "\"EventSourceArn\":\"arn:aws:sqs:eu-west-1:123456789012:orders-dev\",\"BatchSize\":10,"
                + "\"MaximumBatchingWindowInSeconds\":0,\"Enabled\":true,\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"],"
                + "\"ScalingConfig\":{\"MaximumConcurrency\":5},"
                + "\"FilterCriteria\":{\"Filters\":[{\"Pattern\":\"{\\\"body\\\": {\\\"kind\\\": [\\\"order\\\"]}}\"}]}}");
        assertThat(t.timeouts()).isEqualTo(Map.of("OrderProcessor", 30));
        assertThat(t.queues()).containsExactly(
                new QueueDefinition("orders-dev", Map.of("VisibilityTimeout", "180"), Map.of("team", "orders"), "OrdersDLQ", 5),
                QueueDefinition.named("OrdersDLQ"));
    }

    @Test
    void anEventSourceMappingResourceWithLongFormIntrinsics() {
        SamTemplate t = read("""
                {"Resources": {
                  "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "worker", "Timeout": 20}},
                  "Q": {"Type": "AWS::SQS::Queue", "Properties": {"FifoQueue": "true"}},
                  "M": {"Type": "AWS::Lambda::EventSourceMapping", "Properties": {
                    "FunctionName": {"Fn::GetAtt": ["Fn", "Arn"]},
                    "EventSourceArn": {"Fn::Join": [":", ["arn:aws:sqs", {"Ref": "AWS::Region"}, {"Ref": "AWS::AccountId"}, "Q.fifo"]]},
                    "BatchSize": "5", "Tags": [{"Key": "k", "Value": "v"}]}}}}
                """, "worker");
        assertThat(t.mappings().get(0).request().toString()).isEqualTo("{\"FunctionName\":\"arn:aws:lambda:eu-west-1:123456789012:function:worker\","
                + "\"EventSourceArn\":\"arn:aws:sqs:eu-west-1:123456789012:Q.fifo\",\"BatchSize\":5,\"Tags\":{\"k\":\"v\"}}");
        assertThat(t.queues()).containsExactly(new QueueDefinition("Q.fifo", Map.of("FifoQueue", "true"), Map.of(), null, null));
        assertThat(t.timeouts()).isEmpty(); // only SAM functions' Timeout is read
    }

    @Test
    void shortFormSubAndRefToAFunction() {
        SamTemplate t = read("""
                Resources:
                  Handler:
                    Type: AWS::Serverless::Function
                    Properties:
                      FunctionName: handler-fn
                      Timeout: 12
                  Mapping:
                    Type: AWS::Lambda::EventSourceMapping
                    Properties:
                      FunctionName: !Ref Handler
                      EventSourceArn: !Sub arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:${Q.QueueName}
                      Enabled: false
                  Q:
                    Type: AWS::SQS::Queue
                    Properties:
                      QueueName: !Join ['-', [jobs, !Select [1, !Split ['/', 'a/b/c']]]]
                """, "handler-fn");
        assertThat(t.mappings().get(0).request().toString()).isEqualTo(
                "{\"FunctionName\":\"handler-fn\",\"EventSourceArn\":\"arn:aws:sqs:eu-west-1:123456789012:jobs-b\",\"Enabled\":false}");
        assertThat(t.timeouts()).isEqualTo(Map.of("handler-fn", 12));
    }

    @Test
    void aFunctionMissingFromTheConfigNamesTheTemplateResourceAndProperty() {
        assertThatThrownBy(() -> read(ORDER_PROCESSOR, "other"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("template.yaml: Resources.OrderProcessor (AWS::Serverless::Function): function OrderProcessor")
                .hasMessageContaining("not a function of the config file");
        assertThatThrownBy(() -> read("""
                Resources:
                  M:
                    Type: AWS::Lambda::EventSourceMapping
                    Properties: {FunctionName: ghost, EventSourceArn: 'arn:aws:sqs:eu-west-1:123456789012:q'}
                """, "worker"))
                .hasMessageStartingWith("template.yaml: Resources.M.Properties.FunctionName: function ghost");
    }

    @Test
    void anUnresolvableQueueNamesTheTemplateResourceAndProperty() {
        assertThatThrownBy(() -> read("""
                Resources:
                  F:
                    Type: AWS::Serverless::Function
                    Properties:
                      Events:
                        E:
                          Type: SQS
                          Properties:
                            Queue: !Sub arn:aws:sqs:${AWS::Region}:${AWS::AccountId}:${AWS::StackName}-q
                """, "F"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("template.yaml: Resources.F.Properties.Events.E.Properties.Queue: cannot resolve !Ref AWS::StackName "
                        + "(there is no CloudFormation stack)");
        assertThatThrownBy(() -> read("""
                Resources:
                  F:
                    Type: AWS::Serverless::Function
                    Properties:
                      Events:
                        E: {Type: SQS, Properties: {Queue: !GetAtt Missing.Arn}}
                """, "F"))
                .hasMessage("template.yaml: Resources.F.Properties.Events.E.Properties.Queue: cannot resolve !GetAtt Missing.Arn: no such resource");
        assertThatThrownBy(() -> read("""
                Parameters: {QueueArn: {Type: String}}
                Resources:
                  F:
                    Type: AWS::Serverless::Function
                    Properties:
                      Events:
                        E: {Type: SQS, Properties: {Queue: !If [IsProd, !Ref QueueArn, 'x']}}
                """, "F"))
                .hasMessageContaining("Queue: !If is not supported here");
    }

    @Test
    void namesThatNeedTheStackNameAreErrorsWithTheirPlace() {
        assertThatThrownBy(() -> read("""
                Resources:
                  F:
                    Type: AWS::Serverless::Function
                    Properties:
                      FunctionName: !Sub '${AWS::StackName}-f'
                      Events: {E: {Type: SQS, Properties: {Queue: 'arn:aws:sqs:eu-west-1:123456789012:q'}}}
                  Api:
                    Type: AWS::Serverless::Function
                    Properties: {FunctionName: !Sub '${AWS::StackName}-api'}
                """, "F"))
                .hasMessage("template.yaml: Resources.F.Properties.FunctionName: cannot resolve !Ref AWS::StackName "
                        + "(there is no CloudFormation stack)");
        assertThatThrownBy(() -> read("""
                Resources:
                  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: !Join ['-', [!Ref AWS::StackName, q]]}}
                """))
                .hasMessageStartingWith("template.yaml: Resources.Q.Properties.QueueName: cannot resolve !Ref AWS::StackName");
    }

    @Test
    void functionsWithoutSqsEventsAreIgnoredWhateverTheirName() {
        SamTemplate t = read("""
                Resources:
                  Api:
                    Type: AWS::Serverless::Function
                    Properties:
                      FunctionName: !Sub '${AWS::StackName}-api'
                      Events: {Get: {Type: Api, Properties: {Path: /, Method: get}}}
                """);
        assertThat(t.mappings()).isEmpty();
        assertThat(t.queues()).isEmpty();
    }

    @Test
    void badValuesAndUnknownQueuePropertiesAreErrors() {
        assertThatThrownBy(() -> read("""
                Resources:
                  F:
                    Type: AWS::Serverless::Function
                    Properties:
                      Events:
                        E: {Type: SQS, Properties: {Queue: 'arn:aws:sqs:eu-west-1:123456789012:q', BatchSize: ten}}
                """, "F"))
                .hasMessage("template.yaml: Resources.F.Properties.Events.E.Properties.BatchSize: not an integer: ten");
        assertThatThrownBy(() -> read("""
                Resources:
                  Q: {Type: AWS::SQS::Queue, Properties: {Colour: blue}}
                """))
                .hasMessage("template.yaml: Resources.Q.Properties.Colour: not a property of AWS::SQS::Queue that Hikyaku knows");
        assertThatThrownBy(() -> read("""
                Resources:
                  Q:
                    Type: AWS::SQS::Queue
                    Properties:
                      RedrivePolicy: {deadLetterTargetArn: 'arn:aws:sqs:eu-west-1:999999999999:dlq', maxReceiveCount: 3}
                """))
                .hasMessageContaining("Resources.Q.Properties.RedrivePolicy.deadLetterTargetArn: must be a queue of the server's default account");
        assertThatThrownBy(() -> read("Resources: {}\n")).hasMessage("template.yaml: the template has no Resources");
    }
}
