package io.hikyaku.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Passed down the pipeline in place of a request that is refused before it is read in full (its
 * body is too large), so the refusal is answered in order with any pipelined requests before it.
 */
record RejectedRequest(HttpResponseStatus status, String reason, HttpVersion version) {}
