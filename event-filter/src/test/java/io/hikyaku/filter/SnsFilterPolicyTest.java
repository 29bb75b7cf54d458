package io.hikyaku.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.filter.SnsFilterPolicy.Attribute;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SnsFilterPolicyTest {

    private static final Map<String, Attribute> ATTRIBUTES = Map.of(
            "store", new Attribute("String", "example_corp"),
            "event", new Attribute("String", "order_placed"),
            "price", new Attribute("Number", "210.75"),
            "interests", new Attribute("String.Array", "[\"soccer\", \"rugby\"]"),
            "source_ip", new Attribute("String", "10.0.0.255"),
            "blob", new Attribute("Binary", "AAEC"));

    private static final String BODY = "{\"store\":\"example_corp\",\"order\":{\"price\":210.75,\"items\":"
            + "[{\"sku\":\"A-1\"},{\"sku\":\"B-2\"}]},\"tags\":[\"x\",\"y\"]}";

    static Stream<Arguments> attributeCases() {
        return Stream.of(
                Arguments.of("{}", true),
                Arguments.of("{\"store\":[\"example_corp\"]}", true),
                Arguments.of("{\"store\":[\"other\",\"example_corp\"],\"event\":[\"order_placed\"]}", true),
                Arguments.of("{\"store\":[\"example_corp\"],\"event\":[\"order_cancelled\"]}", false),
                Arguments.of("{\"store\":[\"EXAMPLE_CORP\"]}", false),
                Arguments.of("{\"store\":[{\"equals-ignore-case\":\"EXAMPLE_CORP\"}]}", true),
                Arguments.of("{\"store\":[{\"prefix\":\"example\"}]}", true),
                Arguments.of("{\"store\":[{\"suffix\":\"_corp\"}]}", true),
                Arguments.of("{\"store\":[{\"suffix\":\"_inc\"}]}", false),
                Arguments.of("{\"event\":[{\"anything-but\":\"order_cancelled\"}]}", true),
                Arguments.of("{\"event\":[{\"anything-but\":[\"order_placed\",\"x\"]}]}", false),
                Arguments.of("{\"event\":[{\"anything-but\":{\"prefix\":\"order_\"}}]}", false),
                Arguments.of("{\"event\":[{\"anything-but\":{\"prefix\":\"ship_\"}}]}", true),
                Arguments.of("{\"missing\":[{\"anything-but\":\"x\"}]}", false),
                Arguments.of("{\"price\":[210.75]}", true),
                Arguments.of("{\"price\":[\"210.75\"]}", false),
                Arguments.of("{\"price\":[{\"numeric\":[\"=\",210.75]}]}", true),
                Arguments.of("{\"price\":[{\"numeric\":[\">\",0,\"<=\",210.75]}]}", true),
                Arguments.of("{\"price\":[{\"numeric\":[\">\",210.75]}]}", false),
                Arguments.of("{\"store\":[{\"numeric\":[\">\",0]}]}", false),
                Arguments.of("{\"interests\":[\"rugby\"]}", true),
                Arguments.of("{\"interests\":[\"tennis\"]}", false),
                Arguments.of("{\"store\":[{\"exists\":true}]}", true),
                Arguments.of("{\"missing\":[{\"exists\":false}]}", true),
                Arguments.of("{\"store\":[{\"exists\":false}]}", false),
                Arguments.of("{\"blob\":[{\"exists\":true}]}", false),
                Arguments.of("{\"source_ip\":[{\"cidr\":\"10.0.0.0/24\"}]}", true),
                Arguments.of("{\"source_ip\":[{\"cidr\":\"10.0.1.0/24\"}]}", false),
                Arguments.of("{\"store\":[{\"cidr\":\"10.0.0.0/8\"}]}", false),
                Arguments.of("{\"$or\":[{\"store\":[\"nope\"]},{\"event\":[\"order_placed\"]}]}", true),
                Arguments.of("{\"price\":[{\"numeric\":[\">\",0]}],\"$or\":[{\"store\":[\"nope\"]},{\"event\":[\"no\"]}]}", false));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("attributeCases")
    void attributeScope(String policy, boolean expected) throws Exception {
        SnsFilterPolicy p = SnsFilterPolicy.compile(policy, FilterPolicyScope.MessageAttributes);
        assertThat(p.matches(ATTRIBUTES, "not json")).isEqualTo(expected);
    }

    static Stream<Arguments> bodyCases() {
        return Stream.of(
                Arguments.of("{}", "not json", true),
                Arguments.of("{\"store\":[\"example_corp\"]}", BODY, true),
                Arguments.of("{\"store\":[\"example_corp\"]}", "plain text", false),
                Arguments.of("{\"store\":[\"example_corp\"]}", "[1,2]", false),
                Arguments.of("{\"order\":{\"price\":[{\"numeric\":[\">=\",200]}]}}", BODY, true),
                Arguments.of("{\"order\":{\"price\":[{\"numeric\":[\"<\",200]}]}}", BODY, false),
                Arguments.of("{\"order\":{\"items\":{\"sku\":[\"B-2\"]}}}", BODY, true),
                Arguments.of("{\"order\":{\"items\":{\"sku\":[\"C-3\"]}}}", BODY, false),
                Arguments.of("{\"tags\":[\"y\"]}", BODY, true),
                Arguments.of("{\"order\":{\"coupon\":[{\"exists\":false}]}}", BODY, true),
                Arguments.of("{\"$or\":[{\"store\":[\"x\"]},{\"order\":{\"price\":[210.75]}}]}", BODY, true));
    }

    @ParameterizedTest(name = "{0} on {1} -> {2}")
    @MethodSource("bodyCases")
    void bodyScope(String policy, String body, boolean expected) throws Exception {
        SnsFilterPolicy p = SnsFilterPolicy.compile(policy, FilterPolicyScope.MessageBody);
        assertThat(p.matches(Map.of("store", new Attribute("String", "x")), body)).isEqualTo(expected);
    }

    static Stream<Arguments> rejections() {
        return Stream.of(
                Arguments.of("{\"a\":[[\"x\"]]}", "FilterPolicy: Match value must be String, number, true, false, or null"),
                Arguments.of("{\"a\":[{\"wrong-operator\":\"x\"}]}", "FilterPolicy: Unrecognized match type wrong-operator"),
                Arguments.of("{\"a\":[{\"prefix\":\"x\",\"suffix\":\"y\"}]}", "FilterPolicy: Only one key allowed in match expression"),
                Arguments.of("{\"a\":[]}", "FilterPolicy: Empty arrays are not allowed"),
                Arguments.of("{\"a\":[{\"suffix\":1}]}", "FilterPolicy: suffix match pattern must be a string"),
                Arguments.of("{\"suffix\":\"x\"}", "FilterPolicy: \"suffix\" must be an object or an array"),
                Arguments.of("{\"a\":[{\"cidr\":\"10.0.0.0\"}]}", "FilterPolicy: Malformed CIDR, one '/' required"),
                Arguments.of("{\"a\":[{\"cidr\":\"bad-filter/8\"}]}", "FilterPolicy: Nonstandard IP address: bad-filter"),
                Arguments.of("{\"a\":[{\"numeric\":[\">=\",\"x\"]}]}", "FilterPolicy: Value of >= must be numeric"),
                Arguments.of("{\"a\":[{\"numeric\":[\">\",5,\"<\",1]}]}", "FilterPolicy: Bottom must be less than top"),
                Arguments.of("{\"a\":[{\"numeric\":[\">\",1,\"<\",5,\"=\",3]}]}", "FilterPolicy: Too many elements in numeric expression"),
                Arguments.of("{\"a\":[{\"exists\":\"yes\"}]}", "FilterPolicy: exists match pattern must be either true or false."),
                Arguments.of("{\"a\":[{\"anything-but\":{\"suffix\":\"x\"}}]}", "FilterPolicy: Unsupported anything-but pattern: suffix"),
                Arguments.of("{\"a\":[1],\"b\":[1],\"c\":[1],\"d\":[1],\"e\":[1],\"f\":[1]}", "FilterPolicy: Filter policy can not have more than 5 keys"),
                Arguments.of("{\"a\":[1,2,3,4,5,6],\"b\":[1,2,3,4,5],\"c\":[1,2,3,4,5,6]}", "FilterPolicy: Filter policy is too complex"),
                Arguments.of("{\"a\":{\"b\":[\"x\"]}}", "Filter policy scope MessageAttributes does not support nested filter policy"),
                Arguments.of("{\"a\":[\"x\"", "FilterPolicy: failed to parse JSON."));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("rejections")
    void rejectsWithSnsReasons(String policy, String reason) {
        assertThatThrownBy(() -> SnsFilterPolicy.compile(policy, FilterPolicyScope.MessageAttributes))
                .isInstanceOf(FilterPolicyException.class)
                .message().startsWith(reason);
    }

    @org.junit.jupiter.api.Test
    void scopeValuesAreCheckedWithSnsText() throws Exception {
        assertThat(FilterPolicyScope.parse("MessageBody")).isEqualTo(FilterPolicyScope.MessageBody);
        assertThatThrownBy(() -> FilterPolicyScope.parse("RandomValue"))
                .hasMessage("FilterPolicyScope: Invalid value [RandomValue]. Please use either MessageBody or MessageAttributes");
    }

    @org.junit.jupiter.api.Test
    void bodyScopeAllowsNestingToTheDepthBoundOnly() throws Exception {
        int levels = SnsFilterPolicy.MAX_DEPTH + 1; // objects, the policy itself included
        String deep = "{\"k\":".repeat(levels) + "[1]" + "}".repeat(levels);
        assertThatThrownBy(() -> SnsFilterPolicy.compile(deep, FilterPolicyScope.MessageBody))
                .hasMessage("FilterPolicy: Filter policy is too complex");
        String ok = "{\"k\":".repeat(levels - 1) + "[1]" + "}".repeat(levels - 1);
        assertThat(SnsFilterPolicy.compile(ok, FilterPolicyScope.MessageBody).scope()).isEqualTo(FilterPolicyScope.MessageBody);
    }
}
