package io.hikyaku.sns;

import io.hikyaku.filter.SnsFilterPolicy;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A topic's message size limit: the message plus its attributes (names, types, values), never the Subject. */
record PublishLimits(int maximum) {

    static long size(PublishedMessage m) {
        long size = m.message().getBytes(StandardCharsets.UTF_8).length;
        for (Map.Entry<String, SnsFilterPolicy.Attribute> e : m.attributes().entrySet()) {
            size += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().dataType().getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().value().getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }

    void check(PublishedMessage m) throws SnsException {
        if (size(m) > maximum) {
            throw SnsException.invalidParameter("Message too long");
        }
    }
}
