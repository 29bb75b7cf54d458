package io.hikyaku.cloudwatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The identity of a custom metric as CloudWatch defines it: namespace, name and the set of dimensions
 * (order does not matter, so they are kept sorted by name). The unit is not part of the identity.
 */
record MetricKey(String namespace, String metricName, List<Dimension> dimensions) {

    /** One dimension of a metric. */
    record Dimension(String name, String value) {}

    MetricKey {
        List<Dimension> sorted = new ArrayList<>(dimensions);
        sorted.sort(Comparator.comparing(Dimension::name).thenComparing(Dimension::value));
        dimensions = List.copyOf(sorted);
    }
}
