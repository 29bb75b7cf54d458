package io.hikyaku.push;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lambda's event-source-mapping operations over REST-JSON, on the same port as SQS:
 * <pre>
 *   POST   /2015-03-31/event-source-mappings/          CreateEventSourceMapping   202
 *   GET    /2015-03-31/event-source-mappings/          ListEventSourceMappings    200 (?EventSourceArn, FunctionName, Marker, MaxItems)
 *   GET    /2015-03-31/event-source-mappings/{UUID}    GetEventSourceMapping      200
 *   PUT    /2015-03-31/event-source-mappings/{UUID}    UpdateEventSourceMapping   202
 *   DELETE /2015-03-31/event-source-mappings/{UUID}    DeleteEventSourceMapping   202
 *   GET    /2017-03-31/tags/{ARN}                      ListTags                   200 (of a mapping's ARN)
 *   POST   /2017-03-31/tags/{ARN}                      TagResource                204
 *   DELETE /2017-03-31/tags/{ARN}?tagKeys=..           UntagResource              204
 * </pre>
 * Errors carry {@code x-amzn-ErrorType} and {@code {"Type":"User","message":...}}, as Lambda sends them.
 */
public final class LambdaApi {

    public static final String PATH_PREFIX = "/2015-03-31/";
    private static final String MAPPINGS = "/2015-03-31/event-source-mappings";
    /** Lambda's tagging operations (Terraform's AWS provider reads a mapping's tags after every create and read). */
    private static final String TAGS = "/2017-03-31/tags/";
    private static final Logger LOG = LoggerFactory.getLogger(LambdaApi.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EventSourceMappings mappings;
    private final Executor executor;

    LambdaApi(EventSourceMappings mappings, Executor executor) {
        this.mappings = mappings;
        this.executor = executor;
    }

    /** Whether the server should route {@code path} here. */
    public static boolean handles(String path) {
        return path.startsWith(PATH_PREFIX) || path.startsWith(TAGS);
    }

    /**
     * The IAM action a request is authorized as ({@code lambda:CreateEventSourceMapping},
     * {@code lambda:ListEventSourceMappings}, {@code lambda:GetEventSourceMapping},
     * {@code lambda:UpdateEventSourceMapping}, {@code lambda:DeleteEventSourceMapping}), or null for a
     * request this API does not implement (it answers UnknownOperationException).
     */
    public static String iamAction(String method, String path) {
        LambdaOperations.Operation op = LambdaOperations.find(method, path);
        return op == null ? null : op.iamAction();
    }

    /** The mapping UUID a request names ({@code .../event-source-mappings/UUID}), or null. */
    public static String mappingId(String path) {
        if (!path.startsWith(MAPPINGS + "/")) {
            return null;
        }
        String uuid = path.substring(MAPPINGS.length() + 1);
        return uuid.isEmpty() || uuid.contains("/") ? null : uuid;
    }

    public static HttpResponseData invalidParameter(String message) {
        return error(new LambdaException("InvalidParameterValueException", 400, message));
    }

    /** Lambda's refusal of an unauthorized call: 403 AccessDeniedException with IAM's text. */
    public static HttpResponseData accessDenied(String message) {
        return error(new LambdaException("AccessDeniedException", 403, message));
    }

    /**
     * Answers one request of {@code account} (the caller's account, as for SQS calls). Runs on the push
     * executor, never on the caller's thread (a create reads the queue's attributes and stores the mapping).
     */
    public CompletableFuture<HttpResponseData> handle(HttpRequestData request, String account) {
        return CompletableFuture.supplyAsync(() -> answer(request, account), executor);
    }

    HttpResponseData answer(HttpRequestData request, String account) {
        try {
            String path = request.path();
            String method = request.method();
            if (path.equals(MAPPINGS) || path.equals(MAPPINGS + "/")) {
                if (method.equals("POST")) {
                    return json(202, mappings.create(account, body(request)));
                }
                if (method.equals("GET")) {
                    Map<String, String> q = query(request.rawQuery());
                    return json(200, mappings.list(account, q.get("EventSourceArn"), q.get("FunctionName"), q.get("Marker"),
                            maxItems(q.get("MaxItems"))));
                }
            } else if (path.startsWith(TAGS) && path.length() > TAGS.length()) {
                String arn = LambdaOperations.tagArn(path); // what authorization read
                if (arn == null) {
                    throw MappingParameters.badContent("undecodable path");
                }
                switch (method) {
                    case "GET":
                        return json(200, mappings.listTags(account, arn));
                    case "POST":
                        mappings.tag(account, arn, body(request).get("Tags"));
                        return new HttpResponseData(204, Map.of(), new byte[0]);
                    case "DELETE":
                        mappings.untag(account, arn, queryValues(request.rawQuery(), "tagKeys"));
                        return new HttpResponseData(204, Map.of(), new byte[0]);
                    default:
                        break;
                }
            } else if (path.startsWith(MAPPINGS + "/")) {
                String uuid = path.substring(MAPPINGS.length() + 1);
                if (!uuid.isEmpty() && !uuid.contains("/")) {
                    switch (method) {
                        case "GET":
                            return json(200, mappings.get(account, uuid));
                        case "PUT":
                            return json(202, mappings.update(account, uuid, body(request)));
                        case "DELETE":
                            return json(202, mappings.delete(account, uuid));
                        default:
                            break;
                    }
                }
            }
            throw new LambdaException("UnknownOperationException", 404, "Unknown operation " + method + " " + path
                    + " (this server implements Lambda's event source mapping operations only)");
        } catch (LambdaException e) {
            return error(e);
        } catch (RuntimeException e) {
            LOG.error("Lambda API request {} {} failed", request.method(), request.path(), e);
            return error(new LambdaException("ServiceException", 500, "An internal error occurred."));
        }
    }

    private static ObjectNode body(HttpRequestData request) {
        if (request.body().length == 0) {
            return JSON.createObjectNode();
        }
        JsonNode node;
        try {
            node = JSON.readTree(request.body());
        } catch (IOException e) {
            throw MappingParameters.badContent("the body is not JSON");
        }
        if (node == null || node.isNull()) {
            return JSON.createObjectNode();
        }
        if (!node.isObject()) {
            throw MappingParameters.badContent("the body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    private static Integer maxItems(String text) {
        if (text == null) {
            return null;
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw MappingParameters.badContent("MaxItems must be an integer");
        }
        if (value < 1 || value > 10_000) {
            throw LambdaException.validation(MappingParameters.oneError("'" + value + "'", "maxItems",
                    "Member must have value " + (value < 1 ? "greater than or equal to 1" : "less than or equal to 10000")));
        }
        return value;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw MappingParameters.badContent("undecodable path");
        }
    }

    /** Every value of a repeated query parameter ({@code tagKeys=a&tagKeys=b}). */
    private static List<String> queryValues(String raw, String wanted) {
        List<String> out = new ArrayList<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && decode(pair.substring(0, eq)).equals(wanted)) {
                out.add(decode(pair.substring(eq + 1)));
            }
        }
        return out;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                out.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw MappingParameters.badContent("undecodable query parameter " + name);
            }
        }
        return out;
    }

    private static HttpResponseData json(int status, ObjectNode body) {
        try {
            return new HttpResponseData(status, Map.of("content-type", "application/json"), JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static HttpResponseData error(LambdaException e) {
        ObjectNode body = JSON.createObjectNode().put("Type", e.status() >= 500 ? "Service" : "User").put("message", e.getMessage());
        try {
            return new HttpResponseData(e.status(), Map.of("content-type", "application/json", "x-amzn-ErrorType", e.errorType()),
                    JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
