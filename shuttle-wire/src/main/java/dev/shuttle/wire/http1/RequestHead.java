package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.util.Objects;

/**
 * The start line and header fields of an HTTP/1 request, as parsed or about to be written.
 *
 * @param method  the method token, case-sensitive ({@code GET})
 * @param target  the request target as sent: origin-form {@code /a?b}, absolute-form, authority-form or {@code *}
 * @param version HTTP/1.0 or HTTP/1.1
 * @param headers the header fields in arrival order
 */
public record RequestHead(String method, String target, HttpVersion version, Headers headers) {
    public RequestHead {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(headers, "headers");
    }

    /**
     * Whether the connection may carry another request after this exchange, judged from the request alone:
     * HTTP/1.1 unless {@code Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive} (RFC 9112 9.3).
     */
    public boolean keepAlive() {
        return Http1Semantics.keepAlive(version, headers);
    }

    /** True when the client asked for {@code Expect: 100-continue}. */
    public boolean expectsContinue() {
        String expect = headers.first("Expect");
        return expect != null && expect.trim().equalsIgnoreCase("100-continue");
    }
}
