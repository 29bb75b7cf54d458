package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.hikyaku.cloudwatch.CloudWatchOperations;
import io.hikyaku.cloudwatch.CloudWatchOperations.Operation;
import io.hikyaku.cloudwatch.CloudWatchOperations.Protocol;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CloudWatch through its operation table ({@link CloudWatchOperations}), on the real server with real
 * SigV4 (scope {@code monitoring}), in its three protocols: every operation in the table is authorized
 * as exactly its IAM action on its resource, and an operation that is not in the table (unknown, or a
 * CloudWatch operation this server does not serve) is refused with the protocol's own error before any
 * authorization: Query {@code InvalidAction} (400), JSON 1.0 {@code UnknownOperationException} (400),
 * RPC v2 CBOR {@code UnknownOperationException} (404).
 */
class CloudWatchOperationTableTest extends AuthTestBase {

    static final String ERIN = "AKIAERIN000000000001";
    static final String FRANK = "AKIAFRANK00000000001";
    static final String GINA = "AKIAGINA000000000001";
    static final String SECRET = "table/secret/0123456789abcdefghijklmnopq";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());

    @Override
    protected String config() {
        return """
                accounts:
                  - id: "111111111111"
                    rootKeys:
                      - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                    users:
                      - name: erin
                        accessKeys:
                          - {accessKeyId: AKIAERIN000000000001, secretAccessKey: "table/secret/0123456789abcdefghijklmnopq"}
                        policies:
                          data-only: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "cloudwatch:GetMetricData", Resource: "*"}]}
                      - name: frank
                        accessKeys:
                          - {accessKeyId: AKIAFRANK00000000001, secretAccessKey: "table/secret/0123456789abcdefghijklmnopq"}
                        policies:
                          all-metrics: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "cloudwatch:*", Resource: "*"}]}
                      - name: gina
                        accessKeys:
                          - {accessKeyId: AKIAGINA000000000001, secretAccessKey: "table/secret/0123456789abcdefghijklmnopq"}
                        policies:
                          team-alarms: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "cloudwatch:*", Resource: "arn:aws:cloudwatch:us-east-1:111111111111:alarm:team-*"}]}
                  - id: "222222222222"
                    rootKeys:
                      - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
                """;
    }

    @Test
    void everyOperationInEveryProtocolIsAuthorizedAsItsAction() throws IOException {
        for (Operation op : CloudWatchOperations.all()) {
            assertThat(op.iamAction()).isEqualTo("cloudwatch:" + op.operationName());
            for (Protocol protocol : op.protocols()) {
                String alarmArn = "arn:aws:cloudwatch:us-east-1:" + A + ":alarm:table-" + protocol.name().toLowerCase(java.util.Locale.ROOT);
                String resource = switch (op) {
                    case GET_METRIC_STATISTICS, GET_METRIC_DATA, LIST_METRICS, PUT_METRIC_DATA, DESCRIBE_ALARMS_FOR_METRIC -> "*";
                    case DESCRIBE_ALARMS -> "arn:aws:cloudwatch:us-east-1:" + A + ":alarm:*"; // by prefix: every alarm
                    default -> alarmArn;
                };
                Reply all = call(protocol, op.operationName(), input(op, protocol), FRANK, SECRET);
                assertThat(all.status).as(op + " " + protocol + ": " + all.text).isEqualTo(200);
                Reply one = call(protocol, op.operationName(), input(op, protocol), ERIN, SECRET);
                if (op == Operation.GET_METRIC_DATA) {
                    assertThat(one.status).as(op + " " + protocol + ": " + one.text).isEqualTo(200);
                } else {
                    assertThat(one.status).as(op + " " + protocol + ": " + one.text).isEqualTo(403);
                    assertThat(one.code).isEqualTo(protocol == Protocol.QUERY ? "AccessDenied" : "com.amazonaws.cloudwatch#AccessDeniedException");
                    assertThat(one.message).isEqualTo("User: arn:aws:iam::" + A + ":user/erin is not authorized to perform: "
                            + op.iamAction() + (resource.equals("*") ? "" : " on resource: " + resource)
                            + " because no identity-based policy allows the " + op.iamAction() + " action");
                }
            }
        }
    }

    /**
     * The alarm operations are authorized on the alarms they name, not on {@code "*"}: gina may act on
     * alarms {@code team-*} only. A request naming one alarm she may not touch is refused as a whole and
     * changes nothing; a request naming no alarm (list every alarm) is authorized on {@code alarm:*}.
     */
    @Test
    void alarmOperationsAreAuthorizedOnTheAlarmsTheyName() throws IOException {
        for (Protocol protocol : new Protocol[] {Protocol.QUERY, Protocol.JSON, Protocol.CBOR}) {
            String p = protocol.name().toLowerCase(java.util.Locale.ROOT);
            String team = "team-" + p;
            String other = "other-" + p;
            String otherArn = "arn:aws:cloudwatch:us-east-1:" + A + ":alarm:" + other;
            assertThat(call(protocol, "PutMetricAlarm", alarm(other), FRANK, SECRET).status).isEqualTo(200);

            assertThat(call(protocol, "PutMetricAlarm", alarm(team), GINA, SECRET).status).isEqualTo(200);
            Reply put = call(protocol, "PutMetricAlarm", alarm(other), GINA, SECRET);
            assertThat(put.status).as(put.text).isEqualTo(403);
            assertThat(put.message).isEqualTo("User: arn:aws:iam::" + A + ":user/gina is not authorized to perform: cloudwatch:PutMetricAlarm"
                    + " on resource: " + otherArn + " because no identity-based policy allows the cloudwatch:PutMetricAlarm action");

            assertThat(call(protocol, "DescribeAlarms", names(team), GINA, SECRET).status).isEqualTo(200);
            assertThat(call(protocol, "DescribeAlarms", names(team, other), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "DescribeAlarms", JSON.readTree("{\"AlarmNamePrefix\":\"team-\"}"), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "DescribeAlarms", JSON.createObjectNode(), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "SetAlarmState", JSON.readTree("{\"AlarmName\":\"" + other + "\",\"StateValue\":\"ALARM\",\"StateReason\":\"x\"}"),
                    GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "DisableAlarmActions", names(other), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "DescribeAlarmHistory", JSON.readTree("{\"AlarmName\":\"" + other + "\"}"), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "DescribeAlarmHistory", JSON.createObjectNode(), GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "TagResource", JSON.readTree("{\"ResourceARN\":\"" + otherArn + "\",\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}"),
                    GINA, SECRET).status).isEqualTo(403);
            assertThat(call(protocol, "ListTagsForResource", JSON.readTree("{\"ResourceARN\":\"" + otherArn + "\"}"), GINA, SECRET).status).isEqualTo(403);

            Reply delete = call(protocol, "DeleteAlarms", names(team, other), GINA, SECRET);
            assertThat(delete.status).as(delete.text).isEqualTo(403);
            Reply both = call(protocol, "DescribeAlarms", names(team, other), FRANK, SECRET);
            assertThat(both.status).isEqualTo(200);
            assertThat(both.text).as("a refused DeleteAlarms deletes nothing").contains(team).contains(other);

            assertThat(call(protocol, "DeleteAlarms", names(team), GINA, SECRET).status).isEqualTo(200);
            assertThat(call(protocol, "DeleteAlarms", names(other), FRANK, SECRET).status).isEqualTo(200);
        }
    }

    private static JsonNode alarm(String name) throws IOException {
        return JSON.readTree("{\"AlarmName\":\"" + name + "\",\"Namespace\":\"App\",\"MetricName\":\"Workers\",\"Statistic\":\"Sum\","
                + "\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":1,\"ComparisonOperator\":\"GreaterThanThreshold\"}");
    }

    private static JsonNode names(String... names) {
        com.fasterxml.jackson.databind.node.ObjectNode in = JSON.createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode list = in.putArray("AlarmNames");
        for (String n : names) {
            list.add(n);
        }
        return in;
    }

    @Test
    void anOperationNotInTheTableIsRefusedInEachProtocolsWayBeforeAuthorization() throws IOException {
        for (String name : new String[] {"Frobnicate", "PutCompositeAlarm", "PutDashboard", "PutAnomalyDetector", "getmetricdata"}) {
            for (String key : new String[] {ERIN, ROOT_A}) {
                String secret = key.equals(ROOT_A) ? ROOT_A_SECRET : SECRET;
                Reply q = call(Protocol.QUERY, name, JSON.createObjectNode(), key, secret);
                assertThat(q.status).as(name + ": " + q.text).isEqualTo(400);
                assertThat(q.code).isEqualTo("InvalidAction");
                assertThat(q.message).isEqualTo("The action " + name + " is not valid for this web service.");
                Reply j = call(Protocol.JSON, name, JSON.createObjectNode(), key, secret);
                assertThat(j.status).as(name + ": " + j.text).isEqualTo(400);
                assertThat(j.code).isEqualTo("com.amazon.coral.service#UnknownOperationException");
                assertThat(j.queryError).isNull();
                Reply c = call(Protocol.CBOR, name, JSON.createObjectNode(), key, secret);
                assertThat(c.status).as(name + ": " + c.text).isEqualTo(404);
                assertThat(c.code).isEqualTo("com.amazon.coral.service#UnknownOperationException");
                assertThat(c.queryError).isNull();
            }
        }
    }

    /**
     * A valid input of each operation, as the JSON tree its JSON and CBOR requests carry. Each protocol
     * has its own alarm (created by PutMetricAlarm, deleted by DeleteAlarms, the table's last operation).
     */
    private JsonNode input(Operation op, Protocol protocol) throws IOException {
        String alarm = "table-" + protocol.name().toLowerCase(java.util.Locale.ROOT);
        String alarmArn = "arn:aws:cloudwatch:us-east-1:" + A + ":alarm:" + alarm;
        long end = clock.instant().getEpochSecond();
        long start = end - 3600;
        String metric = "{\"Namespace\":\"AWS/SQS\",\"MetricName\":\"NumberOfMessagesSent\",\"Dimensions\":[{\"Name\":\"QueueName\",\"Value\":\"orders\"}]}";
        return JSON.readTree(switch (op) {
            case LIST_METRICS -> "{\"Namespace\":\"AWS/SQS\"}";
            case GET_METRIC_STATISTICS -> metric.substring(0, metric.length() - 1) + ",\"Period\":60,\"Statistics\":[\"Sum\"],\"StartTime\":"
                    + start + ",\"EndTime\":" + end + "}";
            case GET_METRIC_DATA -> "{\"MetricDataQueries\":[{\"Id\":\"a\",\"MetricStat\":{\"Metric\":" + metric
                    + ",\"Period\":60,\"Stat\":\"Sum\"}}],\"StartTime\":" + start + ",\"EndTime\":" + end + "}";
            case PUT_METRIC_DATA -> "{\"Namespace\":\"App\",\"MetricData\":[{\"MetricName\":\"Workers\",\"Value\":2}]}";
            case PUT_METRIC_ALARM -> "{\"AlarmName\":\"" + alarm + "\",\"Namespace\":\"App\",\"MetricName\":\"Workers\",\"Statistic\":\"Sum\","
                    + "\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":1,\"ComparisonOperator\":\"GreaterThanThreshold\"}";
            case DESCRIBE_ALARMS -> "{\"AlarmNamePrefix\":\"table-\"}";
            case DESCRIBE_ALARMS_FOR_METRIC -> "{\"Namespace\":\"App\",\"MetricName\":\"Workers\"}";
            case SET_ALARM_STATE -> "{\"AlarmName\":\"" + alarm + "\",\"StateValue\":\"OK\",\"StateReason\":\"table\"}";
            case ENABLE_ALARM_ACTIONS, DISABLE_ALARM_ACTIONS, DELETE_ALARMS -> "{\"AlarmNames\":[\"" + alarm + "\"]}";
            case DESCRIBE_ALARM_HISTORY -> "{\"AlarmName\":\"" + alarm + "\"}";
            case TAG_RESOURCE -> "{\"ResourceARN\":\"" + alarmArn + "\",\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}";
            case UNTAG_RESOURCE -> "{\"ResourceARN\":\"" + alarmArn + "\",\"TagKeys\":[\"k\"]}";
            case LIST_TAGS_FOR_RESOURCE -> "{\"ResourceARN\":\"" + alarmArn + "\"}";
        });
    }

    private record Reply(int status, String code, String message, String queryError, String text) {}

    private Reply call(Protocol protocol, String operation, JsonNode input, String keyId, String secret) throws IOException {
        SignedCall.Response r = switch (protocol) {
            case QUERY -> SignedCall.form(endpoint, "Action=" + operation + "&Version=2010-08-01" + form(input, ""), keyId, secret,
                    "monitoring", clock.instant());
            case JSON -> SignedCall.post(endpoint, "/", Map.of("Content-Type", "application/x-amz-json-1.0",
                    "X-Amz-Target", "GraniteServiceVersion20100801." + operation), JSON.writeValueAsBytes(input), keyId, secret,
                    "monitoring", clock.instant());
            case CBOR -> SignedCall.post(endpoint, "/service/GraniteServiceVersion20100801/operation/" + operation,
                    Map.of("Content-Type", "application/cbor", "Accept", "application/cbor", "smithy-protocol", "rpc-v2-cbor"),
                    CBOR.writeValueAsBytes(input), keyId, secret, "monitoring", clock.instant());
        };
        String queryError = r.header("x-amzn-query-error");
        if (r.status() == 200) {
            return new Reply(200, null, null, queryError, r.text());
        }
        if (protocol == Protocol.QUERY) {
            String xml = r.text();
            return new Reply(r.status(), between(xml, "<Code>", "</Code>"), between(xml, "<Message>", "</Message>"), queryError, xml);
        }
        JsonNode body = (protocol == Protocol.JSON ? JSON : CBOR).readTree(r.body());
        return new Reply(r.status(), body.path("__type").asText(), body.path("message").asText(), queryError, body.toString());
    }

    private static String between(String text, String open, String close) {
        int i = text.indexOf(open);
        return i < 0 ? null : text.substring(i + open.length(), text.indexOf(close, i));
    }

    /** The Query form of a JSON input: {@code Name=value}, lists as {@code Name.member.N}, timestamps as ISO instants. */
    private static String form(JsonNode node, String prefix) {
        StringBuilder out = new StringBuilder();
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> out.append(form(e.getValue(), prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey())));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.append(form(node.get(i), prefix + ".member." + (i + 1)));
            }
        } else {
            String value = node.isNumber() && prefix.endsWith("Time") ? java.time.Instant.ofEpochSecond(node.asLong()).toString() : node.asText();
            out.append('&').append(prefix).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
        return out.toString();
    }
}
