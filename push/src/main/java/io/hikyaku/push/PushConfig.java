package io.hikyaku.push;

import java.util.List;

/**
 * The config file's push settings.
 *
 * @param functions the functions (HTTP endpoints) mappings can call
 * @param mappings  event source mappings to create or bring up to date at start
 */
public record PushConfig(List<FunctionConfig> functions, List<DeclaredMapping> mappings) {

    public static final PushConfig NONE = new PushConfig(List.of(), List.of());

    public PushConfig {
        functions = functions == null ? List.of() : List.copyOf(functions);
        mappings = mappings == null ? List.of() : List.copyOf(mappings);
    }
}
