package dev.shuttle.client;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a connection goes: scheme, host and port, as RFC 6454 defines an origin. The pool keeps connections per
 * origin; stats and traces name it.
 *
 * @param scheme lower-case {@code http} or {@code https}
 * @param host   lower-case host name or address literal, IPv6 without brackets
 * @param port   the port, the scheme's default filled in
 */
public record Origin(String scheme, String host, int port) {
    /**
     * Lower-cases the scheme and host and drops an IPv6 literal's brackets, so equal origins compare equal; refuses an
     * empty host and a port outside 1..65535.
     */
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

    /**
     * {@return the origin of an absolute {@code http} or {@code https} URI}
     *
     * @param uri an absolute URI; its default port is filled in
     */
    public static Origin of(URI uri) {
        String scheme = uri.getScheme();
        if (scheme == null || uri.getHost() == null) {
            throw new IllegalArgumentException("not an absolute URI with a host: " + uri);
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("unsupported scheme " + scheme + " (http and https only): " + uri);
        }
        int port = uri.getPort() == -1 ? defaultPort(scheme) : uri.getPort();
        return new Origin(scheme, uri.getHost(), port);
    }

    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    /** {@return whether connections to this origin use TLS} */
    public boolean isSecure() {
        return scheme.equals("https");
    }

    /** {@return the Host header value: the port only when it is not the scheme's default, IPv6 literals in brackets} */
    public String authority() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == defaultPort(scheme) ? h : h + ":" + port;
    }

    @Override
    public String toString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return scheme + "://" + h + ":" + port;
    }
}
