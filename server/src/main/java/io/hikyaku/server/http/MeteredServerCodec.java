package io.hikyaku.server.http;

import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * The HTTP codec of a connection: {@link MeteredRequestDecoder} and Netty's response encoder (in place
 * of HttpServerCodec, whose decoder cannot be metered). Responses to HEAD carry no body here anyway
 * ({@link NettyResponses}), so the server codec's HEAD bookkeeping is not needed.
 */
final class MeteredServerCodec extends CombinedChannelDuplexHandler<MeteredRequestDecoder, HttpResponseEncoder> {

    MeteredServerCodec(HttpDecoderConfig config, ConnectionGuards guards) {
        super(new MeteredRequestDecoder(config, guards), new HttpResponseEncoder());
    }

    MeteredRequestDecoder decoder() {
        return inboundHandler();
    }
}
