package io.hikyaku.server.http;

import io.hikyaku.protocol.ProtocolCodec;
import io.hikyaku.protocol.SqsProtocolCodec;

/** The protocol codec the server uses by default. */
public final class Codecs {

    private Codecs() {}

    public static ProtocolCodec standard() {
        return new SqsProtocolCodec();
    }
}
