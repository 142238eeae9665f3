package dev.shuttle.client.exchange;

import dev.shuttle.client.BodyPublisher;
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

    /**
     * Whether the request waits for {@code 100 Continue} before its body: asked with
     * {@code Request.Builder.expectContinue}, or an {@code Expect: 100-continue} of the caller's; a request without a
     * body never waits.
     */
    public static boolean expectsContinue(Request request) {
        BodyPublisher body = request.body();
        boolean hasBody = body != BodyPublisher.none() && body.contentLength() != 0;
        return hasBody && (request.expectContinue() || request.headers().containsToken("Expect", "100-continue"));
    }

    /** Whether the client adds {@code Expect: 100-continue}: it waits for one, and the caller set no Expect. */
    public static boolean addsExpect(Request request) {
        return request.expectContinue() && expectsContinue(request) && !request.headers().contains("Expect");
    }

    /** The body's media type, when it has one and the request names none; else null. */
    public static String contentType(Request request) {
        String type = request.body().contentType();
        return type == null || request.headers().contains("Content-Type") ? null : type;
    }
}
