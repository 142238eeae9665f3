package dev.shuttle.wire.http1;

/** The RFC 9112 section 6 decision of how a message body is framed. */
final class FramingRules {
    private FramingRules() {
    }

    static BodyFraming ofRequest(RequestHead head) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    static BodyFraming ofResponse(String requestMethod, ResponseHead head) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire)");
    }
}
