package io.hikyaku.sns;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * A change to the SNS state, as data. Everything apply needs that is not in the state travels in the command
 * (the time, drawn ids and tokens, the caller), so that replaying the journal rebuilds the same state.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = SnsCommand.CreateTopic.class, name = "CreateTopic"),
    @JsonSubTypes.Type(value = SnsCommand.DeleteTopic.class, name = "DeleteTopic"),
    @JsonSubTypes.Type(value = SnsCommand.SetTopicAttribute.class, name = "SetTopicAttribute"),
    @JsonSubTypes.Type(value = SnsCommand.Subscribe.class, name = "Subscribe"),
    @JsonSubTypes.Type(value = SnsCommand.ConfirmSubscription.class, name = "ConfirmSubscription"),
    @JsonSubTypes.Type(value = SnsCommand.Unsubscribe.class, name = "Unsubscribe"),
    @JsonSubTypes.Type(value = SnsCommand.SetSubscriptionAttribute.class, name = "SetSubscriptionAttribute"),
    @JsonSubTypes.Type(value = SnsCommand.TagResource.class, name = "TagResource"),
    @JsonSubTypes.Type(value = SnsCommand.UntagResource.class, name = "UntagResource"),
    @JsonSubTypes.Type(value = SnsCommand.AddPermission.class, name = "AddPermission"),
    @JsonSubTypes.Type(value = SnsCommand.RemovePermission.class, name = "RemovePermission"),
})
public sealed interface SnsCommand {

    /** The account whose topics the command changes. */
    String account();

    record CreateTopic(String account, String region, String name, Map<String, String> attributes,
                       Map<String, String> tags, long atMillis) implements SnsCommand { }

    record DeleteTopic(String account, String topicArn) implements SnsCommand { }

    record SetTopicAttribute(String account, String topicArn, String name, String value) implements SnsCommand { }

    /**
     * @param subscriptionId the UUID that ends the subscription ARN, drawn before apply
     * @param token the confirmation token for endpoints that must confirm (http, https), drawn before apply
     * @param principal the caller's ARN ({@code SubscriptionPrincipal})
     */
    record Subscribe(String account, String topicArn, String protocol, String endpoint,
                     Map<String, String> attributes, String subscriptionId, String token, String principal,
                     long atMillis) implements SnsCommand { }

    record ConfirmSubscription(String account, String topicArn, String token, boolean authenticated,
                               long atMillis) implements SnsCommand { }

    /**
     * @param restoreToken the token of the UnsubscribeConfirmation's SubscribeURL, which restores the subscription
     *                     within {@link SnsState#RESTORE_MILLIS}; null when none is sent (and in older journal lines)
     */
    record Unsubscribe(String account, String subscriptionArn, String restoreToken, long atMillis) implements SnsCommand {
        Unsubscribe(String account, String subscriptionArn) {
            this(account, subscriptionArn, null, 0);
        }
    }

    record SetSubscriptionAttribute(String account, String subscriptionArn, String name, String value)
            implements SnsCommand { }

    record TagResource(String account, String resourceArn, Map<String, String> tags) implements SnsCommand { }

    record UntagResource(String account, String resourceArn, List<String> tagKeys) implements SnsCommand { }

    record AddPermission(String account, String topicArn, String label, List<String> accountIds,
                         List<String> actions) implements SnsCommand { }

    record RemovePermission(String account, String topicArn, String label) implements SnsCommand { }
}
