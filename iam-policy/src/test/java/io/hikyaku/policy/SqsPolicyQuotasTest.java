package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** SQS's policy quotas and their OverLimit messages; exactly at each limit is fine. */
class SqsPolicyQuotasTest {

    private static String statement(int i, String principal, String actions, String condition) {
        return "{'Sid':'s" + i + "','Effect':'Allow','Principal':" + principal + ",'Action':" + actions + ",'Resource':'*'"
                + (condition == null ? "" : ",'Condition':" + condition) + "}";
    }

    private static Policy policy(int statements, String principal, String actions, String condition) {
        String list = IntStream.range(0, statements).mapToObj(i -> statement(i, principal, actions, condition))
                .collect(Collectors.joining(","));
        return Policies.resource("{'Version':'2012-10-17','Statement':[" + list + "]}");
    }

    private static String actions(int n) {
        return IntStream.range(0, n).mapToObj(i -> "'sqs:A" + i + "'").collect(Collectors.joining(",", "[", "]"));
    }

    private static String accounts(int n) {
        return IntStream.range(0, n).mapToObj(i -> "'" + (100000000000L + i) + "'").collect(Collectors.joining(",", "{'AWS':[", "]}"));
    }

    @Test
    void statements() {
        assertThat(SqsPolicyQuotas.violation(policy(20, "'*'", "'sqs:*'", null))).isEmpty();
        assertThat(SqsPolicyQuotas.violation(policy(21, "'*'", "'sqs:*'", null)))
                .contains("21 statements were found in the submitted policy, max allowed is 20");
    }

    @Test
    void actionsPerStatement() {
        assertThat(SqsPolicyQuotas.violation(policy(1, "'*'", actions(7), null))).isEmpty();
        assertThat(SqsPolicyQuotas.violation(policy(2, "'*'", actions(10), null)))
                .contains("10 actions were found in a statement from the submitted policy, max allowed is 7");
    }

    @Test
    void principalsOverThePolicy() {
        assertThat(SqsPolicyQuotas.violation(policy(2, accounts(25), "'sqs:*'", null))).isEmpty();
        assertThat(SqsPolicyQuotas.violation(policy(3, accounts(17), "'sqs:*'", null)))
                .contains("51 principals were found in the submitted policy, max allowed is 50");
    }

    @Test
    void conditionsOverThePolicy() {
        String five = "{'StringEquals':{'s:a':'1','s:b':'1','s:c':'1'},'Bool':{'aws:SecureTransport':'true','s:d':'true'}}";
        assertThat(SqsPolicyQuotas.violation(policy(2, "'*'", "'sqs:*'", five))).isEmpty();
        assertThat(SqsPolicyQuotas.violation(policy(3, "'*'", "'sqs:*'", five)))
                .contains("15 conditions were found in the submitted policy, max allowed is 10");
    }

    @Test
    void size() {
        String padded = "{\"Id\":\"" + "x".repeat(8192 - 30) + "\",\"Statement\":[]}";
        assertThat(padded.length()).isLessThanOrEqualTo(8192);
        assertThat(SqsPolicyQuotas.sizeViolation(padded)).isEmpty();
        assertThat(SqsPolicyQuotas.sizeViolation(padded + " ".repeat(8193 - padded.length())))
                .contains("Submitted policy is over max allowed size.");
        // bytes, not characters
        String multibyte = "{\"Id\":\"" + "é".repeat(4100) + "\",\"Statement\":[]}";
        assertThat(SqsPolicyQuotas.sizeViolation(multibyte)).isPresent();
    }
}
