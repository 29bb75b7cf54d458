package io.hikyaku.cloudwatch;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CloudWatch operation table: each operation the server serves, its IAM action, the resource it
 * is authorized on and the protocols it is accepted in. The one place that knows CloudWatch
 * operations: {@link CloudWatchEndpoint} finds a request's operation here before anything else, refuses
 * one that is not here (or not in that protocol) with the protocol's unknown-operation error, authorizes
 * it as its IAM action on its resource, and {@link CloudWatchApi} runs it.
 *
 * <pre>
 *   GetMetricStatistics  cloudwatch:GetMetricStatistics  on "*"  Query, JSON 1.0, RPC v2 CBOR
 *   GetMetricData        cloudwatch:GetMetricData        on "*"  Query, JSON 1.0, RPC v2 CBOR
 *   ListMetrics          cloudwatch:ListMetrics          on "*"  Query, JSON 1.0, RPC v2 CBOR
 *   PutMetricData        cloudwatch:PutMetricData        on "*"  Query, JSON 1.0, RPC v2 CBOR
 *   PutMetricAlarm, DescribeAlarms, DescribeAlarmsForMetric, DeleteAlarms, SetAlarmState,
 *   EnableAlarmActions, DisableAlarmActions, DescribeAlarmHistory, TagResource, UntagResource,
 *   ListTagsForResource  cloudwatch:<Operation>          on "*"  Query, JSON 1.0, RPC v2 CBOR
 * </pre>
 * (CloudWatch's metric actions have no resource type in IAM: they are authorized on {@code "*"}. The
 * alarm actions are authorized on {@code "*"} too, not on the alarm's ARN as AWS does: a policy that
 * names alarm ARNs does not match here; docs/compatibility.md says so.)
 */
public final class CloudWatchOperations {

    /** The request shapes CloudWatch is served in. */
    public enum Protocol {
        /** {@code Action=<Op>&Version=2010-08-01}: answered {@code InvalidAction} when unknown. */
        QUERY,
        /** {@code X-Amz-Target: GraniteServiceVersion20100801.<Op>}: {@code UnknownOperationException} (400). */
        JSON,
        /** {@code POST /service/GraniteServiceVersion20100801/operation/<Op>}: {@code UnknownOperationException} (404). */
        CBOR
    }

    /** The operations served (an enum, so that the API's switch over them is exhaustive). */
    public enum Operation {
        GET_METRIC_STATISTICS("GetMetricStatistics"),
        GET_METRIC_DATA("GetMetricData"),
        LIST_METRICS("ListMetrics"),
        PUT_METRIC_DATA("PutMetricData"),
        PUT_METRIC_ALARM("PutMetricAlarm"),
        DESCRIBE_ALARMS("DescribeAlarms"),
        DESCRIBE_ALARMS_FOR_METRIC("DescribeAlarmsForMetric"),
        SET_ALARM_STATE("SetAlarmState"),
        ENABLE_ALARM_ACTIONS("EnableAlarmActions"),
        DISABLE_ALARM_ACTIONS("DisableAlarmActions"),
        DESCRIBE_ALARM_HISTORY("DescribeAlarmHistory"),
        TAG_RESOURCE("TagResource"),
        UNTAG_RESOURCE("UntagResource"),
        LIST_TAGS_FOR_RESOURCE("ListTagsForResource"),
        DELETE_ALARMS("DeleteAlarms");

        private final String operationName;

        Operation(String operationName) {
            this.operationName = operationName;
        }

        /** The Query {@code Action}, JSON target suffix and RPC v2 path segment. */
        public String operationName() {
            return operationName;
        }

        public String iamAction() {
            return "cloudwatch:" + operationName;
        }

        /** The resource authorized: CloudWatch's metric actions have none ({@code "*"}). */
        public String resource() {
            return "*";
        }

        public Set<Protocol> protocols() {
            return ALL_PROTOCOLS;
        }
    }

    private static final Set<Protocol> ALL_PROTOCOLS = Collections.unmodifiableSet(EnumSet.allOf(Protocol.class));
    private static final Map<String, Operation> TABLE;

    static {
        Map<String, Operation> m = new LinkedHashMap<>();
        for (Operation o : Operation.values()) {
            m.put(o.operationName(), o);
        }
        TABLE = Collections.unmodifiableMap(m);
    }

    private CloudWatchOperations() {}

    /** The operation of that name served in {@code protocol}, or null (the request is then refused). */
    public static Operation find(String name, Protocol protocol) {
        Operation op = name == null ? null : TABLE.get(name);
        return op != null && op.protocols().contains(protocol) ? op : null;
    }

    /** Every operation, in table order. */
    public static Collection<Operation> all() {
        return List.copyOf(TABLE.values());
    }
}
