package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CloudWatch API on the SQS endpoint, in the two protocols SDKs use for it: Smithy RPC v2 CBOR
 * ({@code POST /service/GraniteServiceVersion20100801/operation/<Operation>}, current botocore), AWS
 * JSON 1.0 ({@code X-Amz-Target: GraniteServiceVersion20100801.<Operation>}, the AWS CLI v1) and
 * Query ({@code Action=...&Version=2010-08-01}, older SDKs). A Query request is CloudWatch's when its
 * Version is 2010-08-01 or its SigV4 scope names the service {@code monitoring}; SQS uses 2012-11-05.
 */
final class CloudWatchEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(CloudWatchEndpoint.class);
    static final String RPC_PREFIX = "/service/GraniteServiceVersion20100801/operation/";
    static final String VERSION = "2010-08-01";
    static final String JSON_TARGET_PREFIX = "GraniteServiceVersion20100801.";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHAPE_PREFIX = "com.amazonaws.cloudwatch#";
    private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());
    private static final byte[] VERSION_PARAM = ("Version=" + VERSION).getBytes(StandardCharsets.US_ASCII);

    private final CloudWatchApi api;

    CloudWatchEndpoint(CloudWatchApi api) {
        this.api = api;
    }

    /** Whether {@code raw} is a CloudWatch request (cheap checks first: this runs for every SQS request). */
    static boolean accepts(HttpRequestData raw) {
        if (raw.path().startsWith(RPC_PREFIX)) {
            return true;
        }
        String target = raw.header("x-amz-target");
        if (target != null) {
            return target.startsWith(JSON_TARGET_PREFIX);
        }
        String auth = raw.header("authorization");
        if (auth != null && auth.contains("/monitoring/aws4_request")) {
            return true;
        }
        return contains(raw.body(), VERSION_PARAM)
                || raw.rawQuery() != null && raw.rawQuery().contains("Version=" + VERSION)
                        && QueryForm.parameters(raw.rawQuery(), null).containsKey("Version");
    }

    private static boolean contains(byte[] body, byte[] needle) {
        if (body == null || body.length < needle.length) {
            return false;
        }
        outer:
        for (int i = 0; i + needle.length <= body.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (body[i + j] != needle[j]) {
                    continue outer;
                }
            }
            boolean starts = i == 0 || body[i - 1] == '&';
            boolean ends = i + needle.length == body.length || body[i + needle.length] == '&';
            if (starts && ends) {
                return true;
            }
        }
        return false;
    }

    /** This endpoint answering for {@code account}'s queues. */
    CloudWatchEndpoint forAccount(String account) {
        CloudWatchApi other = api.forAccount(account);
        return other == api ? this : new CloudWatchEndpoint(other);
    }

    HttpResponseData handle(HttpRequestData raw, String requestId) {
        return handle(raw, requestId, null);
    }

    /** @param caller the authenticated caller (its account and authorizer), or null: the configured account, no checks */
    HttpResponseData handle(HttpRequestData raw, String requestId, CloudWatchCaller caller) {
        if (raw.path().startsWith(RPC_PREFIX)) {
            return rpc(raw, requestId, caller);
        }
        String target = raw.header("x-amz-target");
        return target != null ? json(raw, target.substring(JSON_TARGET_PREFIX.length()), requestId, caller) : query(raw, requestId, caller);
    }

    /**
     * Finds the operation in the table ({@link CloudWatchOperations}; one not there, or not served in
     * this protocol, is refused with the protocol's unknown-operation error before anything else),
     * authorizes it as the table's IAM action on each resource it acts on, then answers it for the caller's account.
     */
    private Map<String, Object> invoke(CloudWatchOperations.Protocol protocol, String operation, JsonNode in, CloudWatchCaller caller) {
        CloudWatchOperations.Operation op = CloudWatchOperations.find(operation, protocol);
        if (op == null) {
            throw switch (protocol) {
                case QUERY -> CloudWatchException.invalidAction(operation);
                case JSON -> CloudWatchException.unknownOperation(operation, 400);
                case CBOR -> CloudWatchException.unknownOperation(operation, 404);
            };
        }
        if (caller == null) {
            return api.invoke(op, in);
        }
        for (String resource : op.resources(in, api.region(), caller.accountId())) {
            String denial = caller.authorizer().apply(op.iamAction(), resource);
            if (denial != null) {
                throw CloudWatchException.accessDenied(denial);
            }
        }
        return api.forAccount(caller.accountId()).invoke(op, in);
    }

    // ---- AWS JSON 1.0 (the AWS CLI v1 picks it from the model's protocol list) ----

    private HttpResponseData json(HttpRequestData raw, String operation, String requestId, CloudWatchCaller caller) {
        try {
            JsonNode in;
            if (raw.body() == null || raw.body().length == 0) {
                in = JsonNodeFactory.instance.objectNode();
            } else {
                try {
                    in = JSON.readTree(raw.body());
                } catch (java.io.IOException e) {
                    throw CloudWatchException.malformed("The request body is not valid JSON.");
                }
                if (in == null || in.isNull() || in.isMissingNode()) {
                    in = JsonNodeFactory.instance.objectNode();
                } else if (!in.isObject()) {
                    throw CloudWatchException.malformed("The request body must be a JSON object.");
                }
            }
            Map<String, Object> out = invoke(CloudWatchOperations.Protocol.JSON, operation, in, caller);
            return new HttpResponseData(200, jsonHeaders(requestId), WireEncoders.json(out));
        } catch (CloudWatchException e) {
            return jsonError(e, requestId);
        } catch (RuntimeException e) {
            LOG.error("CloudWatch request {} ({}) failed unexpectedly", requestId, operation, e);
            return jsonError(CloudWatchException.internal(), requestId);
        }
    }

    private static Map<String, String> jsonHeaders(String requestId) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("content-type", "application/x-amz-json-1.0");
        h.put("x-amzn-requestid", requestId);
        return h;
    }

    private static HttpResponseData jsonError(CloudWatchException e, String requestId) {
        Map<String, String> h = jsonHeaders(requestId);
        queryError(e, h);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("__type", type(e));
        body.put("message", e.getMessage());
        return new HttpResponseData(e.status, h, WireEncoders.json(body));
    }

    /** The {@code x-amzn-query-error} header of an error that has a Query code (framework errors have none). */
    private static void queryError(CloudWatchException e, Map<String, String> headers) {
        if (e.code != null) {
            headers.put("x-amzn-query-error", e.code + ";" + (e.sender ? "Sender" : "Receiver"));
        }
    }

    private static String type(CloudWatchException e) {
        return e.shape.contains("#") ? e.shape : SHAPE_PREFIX + e.shape;
    }

    // ---- Smithy RPC v2 CBOR ----

    private HttpResponseData rpc(HttpRequestData raw, String requestId, CloudWatchCaller caller) {
        String operation = raw.path().substring(RPC_PREFIX.length());
        try {
            if (!raw.method().equals("POST")) {
                throw CloudWatchException.malformed("RPC v2 requests must use POST.");
            }
            JsonNode in;
            if (raw.body() == null || raw.body().length == 0) {
                in = JsonNodeFactory.instance.objectNode();
            } else {
                try {
                    in = CBOR.readTree(raw.body());
                } catch (java.io.IOException e) {
                    throw CloudWatchException.malformed("The request body is not valid CBOR.");
                }
                if (in == null || in.isNull() || in.isMissingNode()) {
                    in = JsonNodeFactory.instance.objectNode();
                } else if (!in.isObject()) {
                    throw CloudWatchException.malformed("The request body must be a CBOR map.");
                }
            }
            Map<String, Object> out = invoke(CloudWatchOperations.Protocol.CBOR, operation, in, caller);
            return new HttpResponseData(200, rpcHeaders(requestId), WireEncoders.cbor(out));
        } catch (CloudWatchException e) {
            return rpcError(e, requestId);
        } catch (RuntimeException e) {
            LOG.error("CloudWatch request {} ({}) failed unexpectedly", requestId, operation, e);
            return rpcError(CloudWatchException.internal(), requestId);
        }
    }

    private static Map<String, String> rpcHeaders(String requestId) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("content-type", "application/cbor");
        h.put("smithy-protocol", "rpc-v2-cbor");
        h.put("x-amzn-requestid", requestId);
        return h;
    }

    private static HttpResponseData rpcError(CloudWatchException e, String requestId) {
        Map<String, String> h = rpcHeaders(requestId);
        queryError(e, h);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("__type", type(e));
        body.put("message", e.getMessage());
        return new HttpResponseData(e.status, h, WireEncoders.cbor(body));
    }

    // ---- Query ----

    private HttpResponseData query(HttpRequestData raw, String requestId, CloudWatchCaller caller) {
        try {
            Map<String, String> params = QueryForm.parameters(raw.rawQuery(), raw.body());
            String action = params.get("Action");
            if (action == null || action.isEmpty()) {
                throw new MissingAction();
            }
            Map<String, Object> out = invoke(CloudWatchOperations.Protocol.QUERY, action, QueryForm.tree(params), caller);
            return new HttpResponseData(200, xmlHeaders(requestId), WireEncoders.xml(action, out, requestId));
        } catch (MissingAction e) {
            return xmlError(CloudWatchException.missing("Action"), requestId);
        } catch (CloudWatchException e) {
            return xmlError(e, requestId);
        } catch (RuntimeException e) {
            LOG.error("CloudWatch request {} failed unexpectedly", requestId, e);
            return xmlError(CloudWatchException.internal(), requestId);
        }
    }

    private static final class MissingAction extends RuntimeException {
        MissingAction() {
            super(null, null, false, false);
        }
    }

    private static Map<String, String> xmlHeaders(String requestId) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("content-type", "text/xml");
        h.put("x-amzn-requestid", requestId);
        return h;
    }

    private static HttpResponseData xmlError(CloudWatchException e, String requestId) {
        return new HttpResponseData(e.status, xmlHeaders(requestId), WireEncoders.xmlError(e, requestId));
    }
}
