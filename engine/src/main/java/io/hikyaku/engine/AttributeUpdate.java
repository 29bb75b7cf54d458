package io.hikyaku.engine;

import java.util.Map;

/**
 * Queue attributes as given to CreateQueue / SetQueueAttributes: raw name -> string value, exactly
 * as the client sent them (RedrivePolicy / RedriveAllowPolicy / Policy keep their JSON text, which
 * GetQueueAttributes returns as set; "" removes them). When {@code values} holds a non-empty
 * RedrivePolicy or RedriveAllowPolicy, the api passes its parsed form in the matching field.
 */
public record AttributeUpdate(Map<String, String> values, RedrivePolicy redrivePolicy,
                              RedriveAllowPolicy redriveAllowPolicy) {

    public static AttributeUpdate of(Map<String, String> values) {
        return new AttributeUpdate(values, null, null);
    }

    public static AttributeUpdate none() {
        return new AttributeUpdate(Map.of(), null, null);
    }
}
