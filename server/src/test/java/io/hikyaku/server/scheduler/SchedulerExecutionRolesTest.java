package io.hikyaku.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.auth.RequestAuthentication;
import io.hikyaku.server.config.ConfigFile;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each reason a fire's execution role is refused, and the KMS side of an allowed one, on configured identities. */
class SchedulerExecutionRolesTest {

    private static final String ACCOUNTS = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                roles:
                  - name: ok
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole", Condition: {ArnLike: {"aws:SourceArn": "arn:aws:scheduler:*:111111111111:schedule-group/jobs"}, StringEquals: {"aws:SourceAccount": "111111111111"}}}]}
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: ["sqs:SendMessage", "kms:GenerateDataKey"], Resource: ["arn:aws:sqs:us-east-1:111111111111:jobs", "*"]}, {Effect: Deny, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:us-east-1:111111111111:forbidden"}]}
                  - name: publisher
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: scheduler.amazonaws.com}, Action: "sts:AssumeRole"}]}
                    policies:
                      publish: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sns:Publish", Resource: "arn:aws:sns:us-east-1:111111111111:reminders"}]}
                  - name: no-trust
                    policies:
                      send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:*", Resource: "*"}]}
            """;
    private static final String SCHEDULE = "arn:aws:scheduler:us-east-1:111111111111:schedule/jobs/nightly";
    private static final String QUEUE = "arn:aws:sqs:us-east-1:111111111111:jobs";

    private final Clock clock = Clock.fixed(Instant.parse("2026-12-07T12:00:00Z"), ZoneOffset.UTC);
    private final Identities identities = new IdentitiesConfig(Map.<String, String>of()::get).parse(ConfigFile.parse(ACCOUNTS).accounts(), "test");
    private final RequestAuthentication authentication = new RequestAuthentication(
            SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities), "000000000000", "us-east-1", clock);
    private final SchedulerExecutionRoles roles = new SchedulerExecutionRoles(() -> authentication, clock);

    private static String role(String name) {
        return "arn:aws:iam::111111111111:role/" + name;
    }

    @Test
    void aTrustedRoleWithTheRightSends() {
        assertThat(roles.sendDenial(role("ok"), SCHEDULE, QUEUE)).isNull();
    }

    @Test
    void theRoleMustExistTrustTheServiceForThisGroupAndAllowTheSend() {
        assertThat(roles.sendDenial(role("ghost"), SCHEDULE, QUEUE)).isEqualTo("The execution role " + role("ghost") + " does not exist");
        assertThat(roles.sendDenial(role("no-trust"), SCHEDULE, QUEUE))
                .isEqualTo("The execution role " + role("no-trust") + " does not trust scheduler.amazonaws.com");
        assertThat(roles.sendDenial(role("ok"), "arn:aws:scheduler:us-east-1:111111111111:schedule/other/nightly", QUEUE))
                .as("aws:SourceArn is the schedule group's ARN").isEqualTo("The execution role " + role("ok") + " does not trust scheduler.amazonaws.com");
        assertThat(roles.sendDenial(role("ok"), SCHEDULE, "arn:aws:sqs:us-east-1:111111111111:forbidden"))
                .isEqualTo("The execution role " + role("ok") + " is not authorized to perform: sqs:SendMessage on resource: "
                        + "arn:aws:sqs:us-east-1:111111111111:forbidden");
    }

    @Test
    void anSseKmsKeyIsUsedAsTheRoleAndRefusedWhenTheRoleCannotBeAssumed() {
        String key = "arn:aws:kms:us-east-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab";
        String keyPolicy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::111111111111:root\"},"
                + "\"Action\":\"kms:*\",\"Resource\":\"*\"}]}";
        assertThat(roles.keyCaller(role("ok"), SCHEDULE).denial("kms:GenerateDataKey", key, "111111111111", keyPolicy, Map.of())).isNull();
        assertThat(roles.keyCaller(role("ok"), SCHEDULE).denial("kms:Decrypt", key, "111111111111", keyPolicy, Map.of()))
                .contains("is not authorized to perform: kms:Decrypt");
        assertThat(roles.keyCaller(role("no-trust"), SCHEDULE).denial("kms:GenerateDataKey", key, "111111111111", keyPolicy, Map.of()))
                .isEqualTo("The execution role " + role("no-trust") + " cannot be assumed");
    }

    @Test
    void anSnsTopicTargetNeedsSnsPublishAsTheRole() {
        String topic = "arn:aws:sns:us-east-1:111111111111:reminders";
        assertThat(roles.publishDenial(role("publisher"), SCHEDULE, topic)).isNull();
        assertThat(roles.publishDenial(role("publisher"), SCHEDULE, "arn:aws:sns:us-east-1:111111111111:other"))
                .isEqualTo("The execution role " + role("publisher") + " is not authorized to perform: sns:Publish on resource: "
                        + "arn:aws:sns:us-east-1:111111111111:other");
        assertThat(roles.publishDenial(role("ok"), SCHEDULE, topic)).contains("is not authorized to perform: sns:Publish");
        assertThat(roles.publishDenial(role("no-trust"), SCHEDULE, topic)).endsWith("does not trust scheduler.amazonaws.com");
    }

    @Test
    void beforeTheAuthenticationExistsEverySendIsRefused() {
        assertThat(new SchedulerExecutionRoles(() -> null, clock).sendDenial(role("ok"), SCHEDULE, QUEUE)).isNotNull();
    }
}
