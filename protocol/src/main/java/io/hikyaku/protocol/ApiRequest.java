package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One decoded SQS call, the same whichever protocol carried it.
 *
 * <p>{@code input} always has the shape of the AWS JSON 1.0 request body of {@code action} (as in
 * the SQS API reference): the Query codec turns {@code Attribute.1.Name=...} style parameters into
 * the same maps, lists and structures. Values the Query protocol sends as text stay text nodes
 * (e.g. {@code "MaxNumberOfMessages":"5"}); the api layer accepts both a number and a numeric string
 * from Query, and only a number from JSON.
 *
 * @param action     e.g. {@code SendMessage}
 * @param input      the request parameters in JSON 1.0 shape
 * @param protocol   which protocol carried the call (some rules differ, see sqs-behaviours.md)
 * @param acceptJson true for a Query request with {@code Accept: application/json}
 * @param path       the HTTP request path; a Query request to a queue URL path names its queue
 *                   here instead of in {@code QueueUrl}
 */
public record ApiRequest(String action, ObjectNode input, WireProtocol protocol, boolean acceptJson, String path) {}
