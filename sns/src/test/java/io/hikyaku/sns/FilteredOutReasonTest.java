package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.filter.FilterPolicyScope;
import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which AWS/SNS FilteredOut part a dropped message counts under. */
class FilteredOutReasonTest {

    private static SnsFilterPolicy policy(String json, FilterPolicyScope scope) throws Exception {
        return SnsFilterPolicy.compile(json, scope);
    }

    private static SnsFilterPolicy.Attribute a(String type, String value) {
        return new SnsFilterPolicy.Attribute(type, value);
    }

    @Test
    void attributeScope() throws Exception {
        SnsFilterPolicy p = policy("{\"colour\":[\"red\"]}", FilterPolicyScope.MessageAttributes);
        assertThat(FilteredOutReason.of(p, Map.of(), "x")).isEqualTo(FilteredOutReason.NO_MESSAGE_ATTRIBUTES);
        assertThat(FilteredOutReason.of(p, Map.of("colour", a("String.Array", "[\"red\"")), "x"))
                .isEqualTo(FilteredOutReason.INVALID_ATTRIBUTES);
        assertThat(FilteredOutReason.of(p, Map.of("size", a("Number", "twelve")), "x"))
                .isEqualTo(FilteredOutReason.INVALID_ATTRIBUTES);
        assertThat(FilteredOutReason.of(p, Map.of("colour", a("String", "blue")), "x"))
                .isEqualTo(FilteredOutReason.NOT_MATCHED);
        assertThat(FilteredOutReason.NOT_MATCHED.metric).isNull();
    }

    @Test
    void bodyScope() throws Exception {
        SnsFilterPolicy p = policy("{\"colour\":[\"red\"]}", FilterPolicyScope.MessageBody);
        assertThat(FilteredOutReason.of(p, Map.of(), "not json")).isEqualTo(FilteredOutReason.INVALID_MESSAGE_BODY);
        assertThat(FilteredOutReason.of(p, Map.of(), "[1,2]")).isEqualTo(FilteredOutReason.INVALID_MESSAGE_BODY);
        assertThat(FilteredOutReason.of(p, Map.of(), "{\"colour\":\"blue\"}")).isEqualTo(FilteredOutReason.NOT_MATCHED);
        assertThat(FilteredOutReason.INVALID_MESSAGE_BODY.metric.metricName)
                .isEqualTo("NumberOfNotificationsFilteredOut-InvalidMessageBody");
    }
}
