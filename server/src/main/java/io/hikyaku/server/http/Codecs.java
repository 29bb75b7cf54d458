package io.hikyaku.server.http;

import io.hikyaku.protocol.ProtocolCodec;

/** The protocol codec the server uses by default. */
public final class Codecs {

    private Codecs() {}

    public static ProtocolCodec standard() {
        return new PlaceholderCodec();
    }
}
