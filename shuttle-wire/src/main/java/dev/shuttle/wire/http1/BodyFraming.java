package dev.shuttle.wire.http1;

/**
 * How a message body is delimited on the wire (RFC 9112 section 6). Deciding the framing is where request smuggling is
 * stopped, so {@link #ofRequest} is strict.
 */
public sealed interface BodyFraming {
    /** No body at all: requests without Content-Length or Transfer-Encoding; HEAD, 1xx, 204 and 304 responses. */
    record Empty() implements BodyFraming {
    }

    /** Exactly {@code length} bytes follow the head. */
    record ContentLength(long length) implements BodyFraming {
        public ContentLength {
            if (length < 0) {
                throw new IllegalArgumentException("negative length " + length);
            }
        }
    }

    /** Chunked transfer coding, ended by a zero-size chunk and optional trailers. */
    record Chunked() implements BodyFraming {
    }

    /** Responses only: the body runs until the server closes the connection. */
    record CloseDelimited() implements BodyFraming {
    }

    BodyFraming EMPTY = new Empty();
    BodyFraming CHUNKED = new Chunked();
    BodyFraming CLOSE_DELIMITED = new CloseDelimited();

    /**
     * The framing of a request body, rejecting every ambiguity (RFC 9112 6.1-6.3): Content-Length together with
     * Transfer-Encoding (400); differing or malformed Content-Length values (400); Transfer-Encoding on HTTP/1.0 (400);
     * a Transfer-Encoding whose last coding is not chunked (400), or with a coding we do not implement (501).
     */
    static BodyFraming ofRequest(RequestHead head) throws Http1Exception {
        return FramingRules.ofRequest(head);
    }

    /**
     * The framing of a response body to a request with {@code requestMethod} (RFC 9112 6.3): none for HEAD, 1xx, 204,
     * 304 and successful CONNECT; chunked when it is the last transfer coding; a valid Content-Length; otherwise
     * close-delimited. Malformed or differing Content-Length values are an error.
     */
    static BodyFraming ofResponse(String requestMethod, ResponseHead head) throws Http1Exception {
        return FramingRules.ofResponse(requestMethod, head);
    }

    /** A fresh decoder for one body of this framing. */
    default BodyDecoder newDecoder(Http1Limits limits) {
        return BodyDecoder.create(this, limits);
    }
}
