package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.protocol.ApiException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueAttributesReaderTest {

    @Test
    void parsesRedrivePolicyWithNumberOrStringCount() {
        var p = QueueAttributesReader.redrivePolicy("{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:0:dlq\",\"maxReceiveCount\":\"5\"}");
        assertThat(p.deadLetterTargetArn()).isEqualTo("arn:aws:sqs:us-east-1:0:dlq");
        assertThat(p.maxReceiveCount()).isEqualTo(5);
        assertThat(QueueAttributesReader.redrivePolicy("{\"deadLetterTargetArn\":\"a\",\"maxReceiveCount\":3}").maxReceiveCount())
                .isEqualTo(3);
        assertThat(QueueAttributesReader.redrivePolicy("{\"deadLetterTargetArn\":\"a\"}").maxReceiveCount()).isNull();
    }

    @Test
    void rejectsMalformedPolicies() {
        assertThatThrownBy(() -> QueueAttributesReader.redrivePolicy("not json"))
                .hasMessage("Invalid value for the parameter RedrivePolicy. Reason: Redrive policy is not a valid JSON map.")
                .satisfies(e -> assertThat(((ApiException) e).errorType()).isEqualTo("InvalidAttributeValue"));
        assertThatThrownBy(() -> QueueAttributesReader.redrivePolicy("{\"deadLetterTargetArn\":\"a\",\"maxReceiveCount\":\"x\"}"))
                .hasMessageContaining("maxReceiveCount");
        assertThatThrownBy(() -> QueueAttributesReader.read(Map.of("Policy", "{oops")))
                .hasMessage("Invalid value for the parameter Policy.");
        assertThatThrownBy(() -> QueueAttributesReader.redriveAllowPolicy("{}"))
                .hasMessageContaining("redrivePermission");
    }

    @Test
    void emptyValuesPassThroughForRemoval() {
        var update = QueueAttributesReader.read(Map.of("RedrivePolicy", "", "Policy", ""));
        assertThat(update.redrivePolicy()).isNull();
        assertThat(update.values()).containsEntry("Policy", "");
    }

    @Test
    void parsesRedriveAllowPolicy() {
        var p = QueueAttributesReader.redriveAllowPolicy(
                "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"arn:aws:sqs:us-east-1:0:a\"]}");
        assertThat(p.redrivePermission()).isEqualTo("byQueue");
        assertThat(p.sourceQueueArns()).containsExactly("arn:aws:sqs:us-east-1:0:a");
    }
}
