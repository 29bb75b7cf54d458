package io.hikyaku.engine;

import java.util.Map;

/**
 * CreateQueue. {@code region} null = the engine's default region. {@code tags} may be null.
 */
public record CreateQueue(String accountId, String region, String name, AttributeUpdate attributes,
                          Map<String, String> tags, long now) {}
