package io.hikyaku.policy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed policies keyed by (kind, document text), so a document is parsed once however many
 * requests it authorizes. Bounded: the least recently used entry goes when the cache is full.
 * Invalid documents are not cached (they are refused when set and never stored). Thread-safe;
 * parsing runs outside the lock.
 */
public final class PolicyCache {

    private static final PolicyCache SHARED = new PolicyCache(10_000);

    private record Key(PolicyKind kind, String document) {}

    private final Map<Key, Policy> entries;

    public PolicyCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive");
        }
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Policy> eldest) {
                return size() > maxEntries;
            }
        };
    }

    /** The process-wide cache (queue policies are validated and later evaluated through it). */
    public static PolicyCache shared() {
        return SHARED;
    }

    public Policy get(String document, PolicyKind kind) throws PolicyException {
        Key key = new Key(kind, document);
        synchronized (entries) {
            Policy cached = entries.get(key);
            if (cached != null) {
                return cached;
            }
        }
        Policy parsed = Policy.parse(document, kind);
        synchronized (entries) {
            entries.put(key, parsed);
        }
        return parsed;
    }

    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
