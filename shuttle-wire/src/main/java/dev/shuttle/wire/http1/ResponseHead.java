package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.util.Objects;

/**
 * The status line and header fields of an HTTP/1 response.
 *
 * @param version HTTP/1.0 or HTTP/1.1
 * @param status  the three-digit status code, 100..999 on the wire
 * @param reason  the reason phrase, possibly empty
 * @param headers the header fields in arrival order
 */
public record ResponseHead(HttpVersion version, int status, String reason, Headers headers) {
    public ResponseHead {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(headers, "headers");
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status out of range: " + status);
        }
    }

    /** 1xx: an interim response, followed by another head on the same exchange (101 excepted). */
    public boolean isInterim() {
        return status >= 100 && status < 200 && status != 101;
    }

    /** Whether the connection may carry another exchange after this response, judged from the response alone. */
    public boolean keepAlive() {
        return Http1Semantics.keepAlive(version, headers);
    }
}
