package io.hikyaku.identity.sigv4;

import java.util.LinkedHashMap;
import java.util.Map;

/** The parameters of a raw query string (first value of each name), percent-decoded, '+' kept. */
final class QueryParams {

    private final Map<String, String> first;

    private QueryParams(Map<String, String> first) {
        this.first = first;
    }

    /** No parameters: what most requests have (a POST to "/"), shared. */
    private static final QueryParams NONE = new QueryParams(Map.of());

    static QueryParams parse(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return NONE;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = Canonical.decode(eq < 0 ? pair : pair.substring(0, eq));
            m.putIfAbsent(name, eq < 0 ? "" : Canonical.decode(pair.substring(eq + 1)));
        }
        return new QueryParams(m);
    }

    boolean has(String name) {
        return first.containsKey(name);
    }

    String first(String name) {
        return first.get(name);
    }
}
