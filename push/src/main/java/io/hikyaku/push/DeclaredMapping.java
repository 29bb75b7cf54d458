package io.hikyaku.push;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A mapping declared in the config file ({@code eventSourceMappings:}) or in a SAM template it names,
 * applied at every start: created when the server has no mapping of that function and queue yet,
 * otherwise updated to the declared settings. Nothing is deleted.
 *
 * @param queueName a queue of the default account, or null when {@code request} has an EventSourceArn
 * @param request   the CreateEventSourceMapping parameters (FunctionName, BatchSize, ...)
 * @param origin    where it was declared, for start-up errors (e.g. a template's resource), or null
 */
public record DeclaredMapping(String queueName, ObjectNode request, String origin) {

    /** A mapping of the config file's {@code eventSourceMappings:}. */
    public DeclaredMapping(String queueName, ObjectNode request) {
        this(queueName, request, null);
    }
}
