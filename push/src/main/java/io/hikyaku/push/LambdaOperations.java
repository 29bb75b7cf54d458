package io.hikyaku.push;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The Lambda operation table: each request the Lambda API serves (method and path), its operation,
 * its IAM action and the resource it acts on. Authorization reads it before the API runs; a request
 * not in it is refused without running anything (fail closed).
 *
 * <pre>
 *   POST   /2015-03-31/event-source-mappings        CreateEventSourceMapping   on "*"
 *   GET    /2015-03-31/event-source-mappings        ListEventSourceMappings    on "*"
 *   GET    /2015-03-31/event-source-mappings/{UUID} GetEventSourceMapping      on the mapping's ARN
 *   PUT    /2015-03-31/event-source-mappings/{UUID} UpdateEventSourceMapping   on the mapping's ARN
 *   DELETE /2015-03-31/event-source-mappings/{UUID} DeleteEventSourceMapping   on the mapping's ARN
 *   GET    /2017-03-31/tags/{ARN}                    ListTags                   on that ARN
 *   POST   /2017-03-31/tags/{ARN}                    TagResource                on that ARN
 *   DELETE /2017-03-31/tags/{ARN}                    UntagResource              on that ARN
 * </pre>
 */
public final class LambdaOperations {

    static final String MAPPINGS = "/2015-03-31/event-source-mappings";
    static final String TAGS = "/2017-03-31/tags/";

    /**
     * @param name        the Lambda operation
     * @param iamAction   {@code lambda:<name>}
     * @param mappingId   the mapping's UUID for operations on one mapping by UUID, else null
     * @param resourceArn the resource ARN named in the path (tag operations), else null
     */
    public record Operation(String name, String iamAction, String mappingId, String resourceArn) {

        /**
         * The resource authorized: {@code "*"} for create and list, else the mapping's ARN in
         * {@code account} (tag operations: the ARN as given, which must be in {@code account}).
         */
        public String resource(String region, String account) {
            if (resourceArn != null) {
                return resourceArn;
            }
            return mappingId == null ? "*" : mappingArn(region, account, mappingId);
        }
    }

    private LambdaOperations() {}

    /** The ARN of a mapping: {@code arn:aws:lambda:{region}:{account}:event-source-mapping:{UUID}}. */
    public static String mappingArn(String region, String account, String uuid) {
        return "arn:aws:lambda:" + region + ":" + account + ":event-source-mapping:" + uuid;
    }

    /** The account in a Lambda ARN ({@code arn:aws:lambda:region:account:...}), or null when it is not one. */
    public static String accountOfArn(String arn) {
        String[] parts = arn == null ? new String[0] : arn.split(":", 6);
        return parts.length == 6 && parts[0].equals("arn") && parts[2].equals("lambda") && !parts[4].isEmpty() ? parts[4] : null;
    }

    /** The operation of a request, or null when the API does not serve it. */
    public static Operation find(String method, String path) {
        if (path.equals(MAPPINGS) || path.equals(MAPPINGS + "/")) {
            return switch (method) {
                case "POST" -> op("CreateEventSourceMapping", null, null);
                case "GET" -> op("ListEventSourceMappings", null, null);
                default -> null;
            };
        }
        if (path.startsWith(MAPPINGS + "/")) {
            String uuid = path.substring(MAPPINGS.length() + 1);
            if (uuid.isEmpty() || uuid.contains("/")) {
                return null;
            }
            return switch (method) {
                case "GET" -> op("GetEventSourceMapping", uuid, null);
                case "PUT" -> op("UpdateEventSourceMapping", uuid, null);
                case "DELETE" -> op("DeleteEventSourceMapping", uuid, null);
                default -> null;
            };
        }
        if (path.startsWith(TAGS) && path.length() > TAGS.length()) {
            String arn = tagArn(path);
            if (arn == null) {
                return null;
            }
            return switch (method) {
                case "GET" -> op("ListTags", null, arn);
                case "POST" -> op("TagResource", null, arn);
                case "DELETE" -> op("UntagResource", null, arn);
                default -> null;
            };
        }
        return null;
    }

    /** The ARN of a tag request's path, decoded as the API decodes it; null when undecodable. */
    static String tagArn(String path) {
        try {
            return URLDecoder.decode(path.substring(TAGS.length()).replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Operation op(String name, String uuid, String arn) {
        return new Operation(name, "lambda:" + name, uuid, arn);
    }
}
