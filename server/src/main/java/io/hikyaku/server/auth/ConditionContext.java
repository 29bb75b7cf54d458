package io.hikyaku.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.policy.ConditionKeys;
import io.hikyaku.protocol.ApiRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The condition keys of one request, beside those the evaluator derives from the principal
 * (aws:PrincipalArn, aws:PrincipalAccount, aws:PrincipalType, aws:userid, aws:username):
 * aws:SourceIp, aws:SecureTransport, aws:CurrentTime and aws:EpochTime (the time the request was
 * authenticated), aws:UserAgent, the request's tags (aws:RequestTag/KEY and aws:TagKeys for
 * CreateQueue and TagQueue, aws:TagKeys for UntagQueue) and the queue's tags (aws:ResourceTag/KEY).
 */
final class ConditionContext {

    private ConditionContext() {}

    static Map<String, List<String>> globalKeys(io.hikyaku.identity.RequestContext caller) {
        Map<String, List<String>> keys = new HashMap<>();
        if (caller.sourceIp() != null) {
            keys.put(ConditionKeys.SOURCE_IP, List.of(caller.sourceIp()));
        }
        keys.put(ConditionKeys.SECURE_TRANSPORT, List.of(Boolean.toString(caller.secureTransport())));
        TimeKeys time = timeKeys(caller.currentTime().getEpochSecond());
        keys.put(ConditionKeys.CURRENT_TIME, time.currentTime());
        keys.put(ConditionKeys.EPOCH_TIME, time.epochTime());
        if (caller.userAgent() != null) {
            keys.put(ConditionKeys.USER_AGENT, List.of(caller.userAgent()));
        }
        return keys;
    }

    /** aws:CurrentTime and aws:EpochTime of one second; requests of the same second share them. */
    private record TimeKeys(long second, List<String> currentTime, List<String> epochTime) {}

    private static volatile TimeKeys lastTime;

    private static TimeKeys timeKeys(long epochSecond) {
        TimeKeys last = lastTime;
        if (last != null && last.second() == epochSecond) {
            return last;
        }
        TimeKeys t = new TimeKeys(epochSecond, List.of(Instant.ofEpochSecond(epochSecond).toString()), List.of(Long.toString(epochSecond)));
        lastTime = t;
        return t;
    }

    /** aws:RequestTag/KEY and aws:TagKeys of CreateQueue ({@code tags}) and TagQueue ({@code Tags}); aws:TagKeys of UntagQueue. */
    static void addRequestTags(ApiRequest request, Map<String, List<String>> keys) {
        JsonNode in = request.input();
        if (in == null) {
            return;
        }
        switch (request.action()) {
            case "CreateQueue", "TagQueue" -> {
                JsonNode tags = in.has("tags") ? in.get("tags") : in.get("Tags");
                if (tags != null && tags.isObject()) {
                    List<String> names = new ArrayList<>();
                    for (Iterator<Map.Entry<String, JsonNode>> it = tags.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        names.add(e.getKey());
                        keys.put(ConditionKeys.REQUEST_TAG_PREFIX + e.getKey(), List.of(e.getValue().asText()));
                    }
                    keys.put(ConditionKeys.TAG_KEYS, names);
                }
            }
            case "UntagQueue" -> {
                JsonNode tagKeys = in.get("TagKeys");
                List<String> names = new ArrayList<>();
                if (tagKeys != null && tagKeys.isArray()) {
                    tagKeys.forEach(k -> names.add(k.asText()));
                } else if (tagKeys != null && tagKeys.isTextual()) {
                    names.add(tagKeys.asText());
                }
                keys.put(ConditionKeys.TAG_KEYS, names);
            }
            default -> { }
        }
    }

    static void addResourceTags(Map<String, String> tags, Map<String, List<String>> keys) {
        tags.forEach((k, v) -> keys.put(ConditionKeys.RESOURCE_TAG_PREFIX + k, List.of(v)));
    }

    static boolean hasTags(JsonNode in, String field) {
        JsonNode tags = in == null ? null : in.get(field);
        return tags != null && tags.isObject() && tags.size() > 0;
    }
}
