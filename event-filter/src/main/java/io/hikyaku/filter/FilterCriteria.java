package io.hikyaku.filter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A mapping's filters (Lambda's FilterCriteria): a record passes when any pattern matches; with no
 * patterns everything passes. At most {@link #MAX_FILTERS} patterns of at most
 * {@link #MAX_PATTERN_LENGTH} characters each (Lambda's default quota and model limit).
 */
public final class FilterCriteria {

    public static final int MAX_FILTERS = 5;
    public static final int MAX_PATTERN_LENGTH = 4096;
    public static final FilterCriteria NONE = new FilterCriteria(List.of(), List.of());

    private final List<String> patterns;
    private final List<EventPattern> compiled;

    private FilterCriteria(List<String> patterns, List<EventPattern> compiled) {
        this.patterns = patterns;
        this.compiled = compiled;
    }

    /** Compiles the pattern texts; the caller checks the count and lengths first. */
    public static FilterCriteria of(List<String> patterns) throws InvalidPatternException {
        List<EventPattern> compiled = new ArrayList<>();
        for (String p : patterns) {
            compiled.add(EventPattern.compile(p));
        }
        return new FilterCriteria(List.copyOf(patterns), compiled);
    }

    public List<String> patterns() {
        return patterns;
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    public boolean passes(ObjectNode record) {
        if (compiled.isEmpty()) {
            return true;
        }
        for (EventPattern p : compiled) {
            if (p.matches(record)) {
                return true;
            }
        }
        return false;
    }
}
