package dev.shuttle.wire.http2;

import dev.shuttle.wire.Headers;
import java.util.Objects;

/**
 * An HTTP/2 response's {@code :status} and regular fields (RFC 9113 section 8.3.2). Interim (1xx) responses use the
 * same record; 101 does not exist in HTTP/2.
 *
 * @param status  100..599, not 101
 * @param headers the regular fields, names in lower case
 */
public record Http2ResponseHead(int status, Headers headers) {
    public Http2ResponseHead {
        Objects.requireNonNull(headers, "headers");
        if (!FieldRules.isValidStatus(Integer.toString(status))) {
            throw new IllegalArgumentException("invalid HTTP/2 status " + status);
        }
    }

    /** True for 1xx: more heads follow on the stream. */
    public boolean isInterim() {
        return status < 200;
    }
}
