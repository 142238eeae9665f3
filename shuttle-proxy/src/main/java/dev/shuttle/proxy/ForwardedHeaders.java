package dev.shuttle.proxy;

import dev.shuttle.server.Request;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * What the upstream learns about the original request: {@code X-Forwarded-For} (the client's address appended to any
 * list it came with, as Go's proxy and nginx's {@code $proxy_add_x_forwarded_for} do), {@code X-Forwarded-Host} and
 * {@code X-Forwarded-Proto} (this hop's, replacing any), and RFC 7239 {@code Forwarded} with the same facts appended.
 * The appended lists can be forged by the client: an upstream trusts only the entries its own proxies added.
 * Stateless.
 */
final class ForwardedHeaders {
    private ForwardedHeaders() {
    }

    /** The client's address as RFC 7239 and X-Forwarded-For write it. */
    static String clientAddress(Request request) {
        InetSocketAddress remote = request.remoteAddress();
        InetAddress address = remote == null ? null : remote.getAddress();
        return address == null ? "unknown" : address.getHostAddress();
    }

    static String protocol(Request request) {
        return request.connection() != null && request.connection().tls() != null ? "https" : "http";
    }

    static String xForwardedFor(String previous, String client) {
        return previous == null || previous.isBlank() ? client : previous + ", " + client;
    }

    /** One {@code Forwarded} element for this hop, appended to {@code previous}. */
    static String forwarded(String previous, Request request, String host) {
        String client = clientAddress(request);
        InetSocketAddress remote = request.remoteAddress();
        boolean v6 = remote != null && remote.getAddress() instanceof Inet6Address;
        StringBuilder element = new StringBuilder("for=");
        element.append(v6 ? "\"[" + client + "]\"" : quoteIfNeeded(client));
        if (host != null) {
            element.append(";host=").append(quoteIfNeeded(host));
        }
        element.append(";proto=").append(protocol(request));
        return previous == null || previous.isBlank() ? element.toString() : previous + ", " + element;
    }

    /** A token as is, anything else as a quoted-string (a port's colon is not a token character). */
    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean token = Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!token || c > 0x7e) {
                return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            }
        }
        return value;
    }
}
