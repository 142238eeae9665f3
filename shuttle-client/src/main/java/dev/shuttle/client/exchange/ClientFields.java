package dev.shuttle.client.exchange;

import dev.shuttle.client.Request;
import dev.shuttle.client.internal.ClientSettings;

/**
 * The rules for fields the client adds to a request on its way out, whatever the protocol: each written once, here,
 * so HTTP/1.1 and HTTP/2 send the same.
 */
public final class ClientFields {
    private ClientFields() {
    }

    /** What the client accepts when it decompresses by itself: the two codings {@code java.util.zip} decodes. */
    public static final String ACCEPT_ENCODING = "gzip, deflate";

    /**
     * Whether the client asks for a compressed response and decodes it by itself (Go's rule): compression is on, the
     * caller named no {@code Accept-Encoding} of its own (then the body is theirs to decode), and the request is no
     * HEAD (no body to decode) and no {@code Range} request (a slice of a compressed body cannot be decoded).
     */
    public static boolean requestsCompression(ClientSettings settings, Request request) {
        if (!settings.compression()) {
            return false;
        }
        if (request.headers().isEmpty()) {
            return !request.method().equals("HEAD");
        }
        return !request.method().equals("HEAD") && !request.headers().contains("Accept-Encoding")
                && !request.headers().contains("Range");
    }

    /** The body's media type, when it has one and the request names none; else null. */
    public static String contentType(Request request) {
        String type = request.body().contentType();
        return type == null || request.headers().contains("Content-Type") ? null : type;
    }
}
