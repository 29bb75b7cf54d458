package io.hikyaku.push;

import java.util.List;

/**
 * Where mappings live between restarts. Kept apart from the queue engine's keyspaces: mappings are
 * few, change rarely and are configuration rather than queue state.
 */
public interface MappingStore {

    List<EventSourceMapping> load();

    /** Replaces everything stored with {@code mappings}; returns once that is durable. */
    void save(List<EventSourceMapping> mappings);

    /** Keeps mappings in memory only (storage memory: lost on exit, like the queues). */
    static MappingStore inMemory() {
        return new MappingStore() {
            private volatile List<EventSourceMapping> saved = List.of();

            @Override
            public List<EventSourceMapping> load() {
                return saved;
            }

            @Override
            public void save(List<EventSourceMapping> mappings) {
                saved = List.copyOf(mappings);
            }
        };
    }
}
