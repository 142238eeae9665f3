package dev.shuttle.client.proxy;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.Locale;
import java.util.Objects;

/**
 * An HTTP proxy a route goes through: plain http requests are sent to it in absolute form, https ones through a
 * {@code CONNECT} tunnel. Part of the pool's key, so connections through different proxies (or with different
 * credentials) are never mixed.
 *
 * @param host          the proxy's host, lower case, IPv6 without brackets
 * @param port          its port
 * @param authorization the {@code Proxy-Authorization} value sent up front ({@code Basic ...}, from the proxy URL's
 *                      user info), or null
 */
public record ProxyServer(String host, int port, String authorization) {
    public ProxyServer {
        Objects.requireNonNull(host, "host");
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("proxy port out of range: " + port);
        }
    }

    /** As the JDK's {@link Proxy} (HTTP, unresolved), for traces and {@code ConnectionInfo}. */
    public Proxy asProxy() {
        return new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(host, port));
    }

    /** {@code http://host:port}, without the credentials. */
    @Override
    public String toString() {
        return "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
