package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The 23 operations, their IAM actions, owner-only flags and resources. */
class SqsActionsTest {

    @ParameterizedTest(name = "{0} -> {1}, owner-only {2}")
    @CsvSource(delimiter = '|', textBlock = """
        AddPermission                | sqs:AddPermission              | true
        CancelMessageMoveTask        | sqs:CancelMessageMoveTask      | false
        ChangeMessageVisibility      | sqs:ChangeMessageVisibility    | false
        ChangeMessageVisibilityBatch | sqs:ChangeMessageVisibility    | false
        CreateQueue                  | sqs:CreateQueue                | true
        DeleteMessage                | sqs:DeleteMessage              | false
        DeleteMessageBatch           | sqs:DeleteMessage              | false
        DeleteQueue                  | sqs:DeleteQueue                | true
        GetQueueAttributes           | sqs:GetQueueAttributes         | false
        GetQueueUrl                  | sqs:GetQueueUrl                | false
        ListDeadLetterSourceQueues   | sqs:ListDeadLetterSourceQueues | false
        ListMessageMoveTasks         | sqs:ListMessageMoveTasks       | false
        ListQueues                   | sqs:ListQueues                 | true
        ListQueueTags                | sqs:ListQueueTags              | true
        PurgeQueue                   | sqs:PurgeQueue                 | false
        ReceiveMessage               | sqs:ReceiveMessage             | false
        RemovePermission             | sqs:RemovePermission           | true
        SendMessage                  | sqs:SendMessage                | false
        SendMessageBatch             | sqs:SendMessage                | false
        SetQueueAttributes           | sqs:SetQueueAttributes         | true
        StartMessageMoveTask         | sqs:StartMessageMoveTask       | false
        TagQueue                     | sqs:TagQueue                   | true
        UntagQueue                   | sqs:UntagQueue                 | true
        """)
    void everyOperation(String operation, String iamAction, boolean ownerOnly) {
        assertThat(SqsActions.iamAction(operation)).isEqualTo(iamAction);
        assertThat(SqsActions.isOwnerOnly(iamAction)).isEqualTo(ownerOnly);
        assertThat(SqsActions.isOwnerOnly(iamAction.toUpperCase())).isEqualTo(ownerOnly);
    }

    @Test
    void twentyThreeOperationsTwentyActions() {
        assertThat(SqsActions.operations()).hasSize(23);
        assertThat(SqsActions.operations().stream().map(SqsActions::iamAction).distinct()).hasSize(20);
        assertThat(SqsActions.iamAction("Frobnicate")).isNull();
        assertThat(SqsActions.isOwnerOnly("sns:CreateTopic")).isFalse();
    }

    @Test
    void resources() {
        assertThat(SqsActions.queueArn("eu-west-1", "111111111111", "orders")).isEqualTo("arn:aws:sqs:eu-west-1:111111111111:orders");
        assertThat(SqsActions.resourceArn("ListQueues", "eu-west-1", "111111111111", null)).isEqualTo("*");
        assertThat(SqsActions.resourceArn("SendMessageBatch", "eu-west-1", "111111111111", "q.fifo"))
                .isEqualTo("arn:aws:sqs:eu-west-1:111111111111:q.fifo");
        assertThat(SqsActions.requiredActions("CreateQueue", true)).containsExactly("sqs:CreateQueue", "sqs:TagQueue");
        assertThat(SqsActions.requiredActions("CreateQueue", false)).containsExactly("sqs:CreateQueue");
        assertThat(SqsActions.requiredActions("SendMessageBatch", true)).containsExactly("sqs:SendMessage");
    }

    @Test
    void hikyakuPeekIsAuthorizedAsReceiveMessage() {
        assertThat(SqsActions.iamAction("Hikyaku.PeekMessages")).isEqualTo("sqs:ReceiveMessage");
        assertThat(SqsActions.requiredActions("Hikyaku.PeekMessages", false)).containsExactly("sqs:ReceiveMessage");
        assertThat(SqsActions.operations()).doesNotContain("Hikyaku.PeekMessages");
    }
}
