package io.hikyaku.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/** Every served service's SDK v2 client as a test parameter, each talking to the test's server. */
@HikyakuQueue(name = "fanned")
class ServiceClientsTest {

    @RegisterExtension
    static HikyakuExtension hikyaku = HikyakuExtension.perClass();

    @Test
    void eachServedServicesClientIsInjectedAndReachesTheServer(SqsClient sqs, SnsClient sns, KmsClient kms,
                                                               SchedulerClient scheduler, CloudWatchClient cloudWatch,
                                                               StsClient sts) {
        String queue = sqs.getQueueUrl(r -> r.queueName("fanned")).queueUrl();
        String queueArn = sqs.getQueueAttributes(r -> r.queueUrl(queue).attributeNamesWithStrings("QueueArn"))
                .attributesAsStrings().get("QueueArn");
        String topic = sns.createTopic(r -> r.name("events")).topicArn();
        sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn).attributes(java.util.Map.of("RawMessageDelivery", "true")));
        sns.publish(r -> r.topicArn(topic).message("through SNS"));
        assertThat(sqs.receiveMessage(r -> r.queueUrl(queue).waitTimeSeconds(5)).messages())
                .extracting(software.amazon.awssdk.services.sqs.model.Message::body).containsExactly("through SNS");

        String key = kms.createKey().keyMetadata().keyId();
        SdkBytes blob = kms.encrypt(r -> r.keyId(key).plaintext(SdkBytes.fromUtf8String("secret"))).ciphertextBlob();
        assertThat(kms.decrypt(r -> r.ciphertextBlob(blob)).plaintext().asUtf8String()).isEqualTo("secret");

        assertThat(scheduler.listScheduleGroups(r -> { }).scheduleGroups()).extracting(g -> g.name()).contains("default");
        cloudWatch.putMetricData(r -> r.namespace("Tests/Junit5").metricData(d -> d.metricName("Workers").value(2.0)));
        assertThat(cloudWatch.listMetrics(r -> r.namespace("Tests/Junit5")).metrics()).extracting(m -> m.metricName())
                .containsExactly("Workers");
        assertThat(sts.getCallerIdentity().account()).isEqualTo(hikyaku.server().config().accountId());
    }

    @Test
    void aClientOfAServiceTheServerDoesNotAnswerIsNotOffered() {
        assertThat(SdkClients.supports(SqsClient.class)).isTrue();
        assertThat(SdkClients.supports(String.class)).isFalse();
        assertThat(SdkClients.SERVED).noneMatch(name -> name.contains(".s3."));
    }
}
