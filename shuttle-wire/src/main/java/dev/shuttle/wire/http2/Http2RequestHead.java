package dev.shuttle.wire.http2;

import dev.shuttle.wire.Headers;
import java.util.Objects;

/**
 * An HTTP/2 request's pseudo-header fields and regular fields (RFC 9113 section 8.3.1).
 *
 * @param method    {@code :method}, a token
 * @param scheme    {@code :scheme}; null only for CONNECT
 * @param authority {@code :authority} (host and optional port, no userinfo); null when absent, in which case a
 *                  {@code host} field may stand in
 * @param path      {@code :path}; null only for CONNECT; {@code *} only for OPTIONS
 * @param headers   the regular fields, names in lower case, cookie crumbs joined into one {@code cookie} field
 */
public record Http2RequestHead(String method, String scheme, String authority, String path, Headers headers) {
    public Http2RequestHead {
        Objects.requireNonNull(headers, "headers");
        if (method == null || !FieldRules.isValidMethod(method)) {
            throw new IllegalArgumentException("invalid :method " + method);
        }
        if (scheme != null && !FieldRules.isValidScheme(scheme)) {
            throw new IllegalArgumentException("invalid :scheme " + scheme);
        }
        if (authority != null && !FieldRules.isValidAuthority(authority)) {
            throw new IllegalArgumentException("invalid :authority " + authority);
        }
        if (path != null && !FieldRules.isValidPath(path)) {
            throw new IllegalArgumentException("invalid :path " + path);
        }
        if (isConnect(method) ? (scheme != null || path != null || authority == null)
                : (scheme == null || path == null)) {
            throw new IllegalArgumentException(isConnect(method)
                    ? "CONNECT has :authority and neither :scheme nor :path"
                    : "a request has :scheme and :path");
        }
    }

    /** The authority, or the {@code host} field when {@code :authority} was absent; null when neither is there. */
    public String authorityOrHost() {
        return authority != null ? authority : headers.first("host");
    }

    static boolean isConnect(String method) {
        return "CONNECT".equals(method);
    }
}
