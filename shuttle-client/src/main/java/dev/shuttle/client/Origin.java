package dev.shuttle.client;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a connection goes: scheme, host and port, as RFC 6454 defines an origin. The pool keeps connections per
 * origin; stats and traces name it.
 *
 * @param scheme lower-case {@code http} (the only scheme supported so far)
 * @param host   lower-case host name or address literal, IPv6 without brackets
 * @param port   the port, the scheme's default filled in
 */
public record Origin(String scheme, String host, int port) {
    public Origin {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(host, "host");
        scheme = scheme.toLowerCase(Locale.ROOT);
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("empty host");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** The origin of an absolute {@code http} URI. */
    public static Origin of(URI uri) {
        String scheme = uri.getScheme();
        if (scheme == null || uri.getHost() == null) {
            throw new IllegalArgumentException("not an absolute URI with a host: " + uri);
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        if (!scheme.equals("http")) {
            throw new IllegalArgumentException("unsupported scheme " + scheme + " (only http so far): " + uri);
        }
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        return new Origin(scheme, uri.getHost(), port);
    }

    /** The Host header value: the port only when it is not the scheme's default, IPv6 literals in brackets. */
    public String authority() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == 80 ? h : h + ":" + port;
    }

    @Override
    public String toString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return scheme + "://" + h + ":" + port;
    }
}
