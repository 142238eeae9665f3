package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;

/** Small rules of RFC 9112 shared by requests and responses. */
final class Http1Semantics {
    private Http1Semantics() {
    }

    static boolean keepAlive(HttpVersion version, Headers headers) {
        if (headers.containsToken("Connection", "close")) {
            return false;
        }
        if (version == HttpVersion.HTTP_1_0) {
            return headers.containsToken("Connection", "keep-alive");
        }
        return true;
    }
}
