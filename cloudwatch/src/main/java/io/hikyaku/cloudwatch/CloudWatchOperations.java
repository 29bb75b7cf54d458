package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
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
 *   DescribeAlarmsForMetric  cloudwatch:DescribeAlarmsForMetric  on "*"
 *   PutMetricAlarm, SetAlarmState             cloudwatch:<Operation>  on the alarm named by AlarmName
 *   DeleteAlarms, DescribeAlarms,
 *   EnableAlarmActions, DisableAlarmActions   cloudwatch:<Operation>  on each alarm of AlarmNames
 *   DescribeAlarmHistory                      cloudwatch:<Operation>  on the alarm named by AlarmName
 *   TagResource, UntagResource,
 *   ListTagsForResource                       cloudwatch:<Operation>  on ResourceARN
 * </pre>
 * CloudWatch's metric actions have no resource type in IAM: they are authorized on {@code "*"}. The alarm
 * actions are authorized on the alarm's ARN, {@code arn:aws:cloudwatch:<region>:<account>:alarm:<name>},
 * as IAM's alarm resource type says. Where a request names no alarm (DescribeAlarms without AlarmNames,
 * with or without AlarmNamePrefix; DescribeAlarmHistory without AlarmName), or a required name is missing,
 * it is authorized on every alarm of the account, {@code ...:alarm:*}: to list every alarm a policy must
 * allow them all. (Our decision where AWS's documentation is silent; docs/compatibility.md says so.)
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
    /** What an operation acts on, for authorization. */
    public enum Target {
        /** No resource type in IAM: {@code "*"}. */
        NONE,
        /** The alarm named by {@code AlarmName} (every alarm of the account when it is absent). */
        ALARM_NAME,
        /** Each alarm of {@code AlarmNames} (every alarm of the account when the list is empty). */
        ALARM_NAMES,
        /** The resource named by {@code ResourceARN} (tags). */
        RESOURCE_ARN
    }

    public enum Operation {
        GET_METRIC_STATISTICS("GetMetricStatistics", Target.NONE),
        GET_METRIC_DATA("GetMetricData", Target.NONE),
        LIST_METRICS("ListMetrics", Target.NONE),
        PUT_METRIC_DATA("PutMetricData", Target.NONE),
        PUT_METRIC_ALARM("PutMetricAlarm", Target.ALARM_NAME),
        DESCRIBE_ALARMS("DescribeAlarms", Target.ALARM_NAMES),
        DESCRIBE_ALARMS_FOR_METRIC("DescribeAlarmsForMetric", Target.NONE),
        SET_ALARM_STATE("SetAlarmState", Target.ALARM_NAME),
        ENABLE_ALARM_ACTIONS("EnableAlarmActions", Target.ALARM_NAMES),
        DISABLE_ALARM_ACTIONS("DisableAlarmActions", Target.ALARM_NAMES),
        DESCRIBE_ALARM_HISTORY("DescribeAlarmHistory", Target.ALARM_NAME),
        TAG_RESOURCE("TagResource", Target.RESOURCE_ARN),
        UNTAG_RESOURCE("UntagResource", Target.RESOURCE_ARN),
        LIST_TAGS_FOR_RESOURCE("ListTagsForResource", Target.RESOURCE_ARN),
        DELETE_ALARMS("DeleteAlarms", Target.ALARM_NAMES);

        private final String operationName;
        private final Target target;

        Operation(String operationName, Target target) {
            this.operationName = operationName;
            this.target = target;
        }

        public Target target() {
            return target;
        }

        /**
         * The resources this request acts on, each to be authorized: {@code "*"}, alarm ARNs of
         * {@code accountId} in {@code region}, or the request's {@code ResourceARN}. Never empty.
         */
        public List<String> resources(JsonNode in, String region, String accountId) {
            String alarms = "arn:aws:cloudwatch:" + region + ":" + accountId + ":alarm:";
            switch (target) {
                case ALARM_NAME: {
                    String name = Input.text(in, "AlarmName");
                    return List.of(alarms + (name == null ? "*" : name));
                }
                case ALARM_NAMES: {
                    JsonNode names = Input.get(in, "AlarmNames");
                    List<String> out = new ArrayList<>();
                    if (names.isArray()) {
                        for (JsonNode n : names) {
                            out.add(alarms + n.asText());
                        }
                    }
                    return out.isEmpty() ? List.of(alarms + "*") : out;
                }
                case RESOURCE_ARN: {
                    String arn = Input.text(in, "ResourceARN");
                    return List.of(arn == null ? alarms + "*" : arn);
                }
                default:
                    return List.of("*");
            }
        }

        /** The Query {@code Action}, JSON target suffix and RPC v2 path segment. */
        public String operationName() {
            return operationName;
        }

        public String iamAction() {
            return "cloudwatch:" + operationName;
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
