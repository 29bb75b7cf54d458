package io.hikyaku.policy;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed policies keyed by (kind, document text), so a document is parsed once however many
 * requests it authorizes. Bounded twice: by entries and by the total length of the cached documents
 * (the parsed model grows with its text), dropping the least recently used first. Invalid documents
 * are not cached (they are refused when set and never stored). Thread-safe; parsing runs outside
 * the lock.
 */
public final class PolicyCache {

    /** 4,096 documents or 4 Mi characters, whichever comes first: a few tens of MB of heap at most. */
    private static final PolicyCache SHARED = new PolicyCache(4096, 4L << 20);

    private record Key(PolicyKind kind, String document) {}

    private final int maxEntries;
    private final long maxChars;
    private final LinkedHashMap<Key, Policy> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long chars;

    public PolicyCache(int maxEntries, long maxChars) {
        if (maxEntries < 1 || maxChars < 1) {
            throw new IllegalArgumentException("cache bounds must be positive");
        }
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
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
            if (entries.put(key, parsed) == null) {
                chars += document.length();
            }
            Iterator<Map.Entry<Key, Policy>> eldest = entries.entrySet().iterator();
            while ((entries.size() > maxEntries || chars > maxChars) && entries.size() > 1) {
                Map.Entry<Key, Policy> e = eldest.next();
                chars -= e.getKey().document().length();
                eldest.remove();
            }
        }
        return parsed;
    }

    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
