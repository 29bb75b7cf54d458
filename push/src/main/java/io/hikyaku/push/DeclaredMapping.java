package io.hikyaku.push;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A mapping declared in the config file ({@code eventSourceMappings:}), applied at every start:
 * created when the server has no mapping of that function and queue yet, otherwise updated to the
 * file's settings. Nothing is deleted.
 *
 * @param queueName a queue of the default account, or null when {@code request} has an EventSourceArn
 * @param request   the CreateEventSourceMapping parameters (FunctionName, BatchSize, ...)
 */
public record DeclaredMapping(String queueName, ObjectNode request) {}
