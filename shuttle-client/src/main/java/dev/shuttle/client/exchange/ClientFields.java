package dev.shuttle.client.exchange;

import dev.shuttle.client.Request;

/**
 * The rules for fields the client adds to a request on its way out, whatever the protocol: each written once, here,
 * so HTTP/1.1 and HTTP/2 send the same.
 */
public final class ClientFields {
    private ClientFields() {
    }

    /** The body's media type, when it has one and the request names none; else null. */
    public static String contentType(Request request) {
        String type = request.body().contentType();
        return type == null || request.headers().contains("Content-Type") ? null : type;
    }
}
