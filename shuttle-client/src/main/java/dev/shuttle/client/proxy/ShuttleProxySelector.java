package dev.shuttle.client.proxy;

import dev.shuttle.client.Origin;
import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;

/**
 * The client's own proxy selectors ({@code Proxies}): a fixed proxy or the environment's, with {@link NoProxy}
 * rules. Besides the JDK's {@link ProxySelector} face they give the client the proxy with its credentials, and say
 * when no request ever goes through a proxy, so those requests pay for no selection.
 */
public final class ShuttleProxySelector extends ProxySelector {
    private static final ShuttleProxySelector NONE = new ShuttleProxySelector(null, null, null, null, "none");

    /** For http requests; null: direct. */
    private final ProxyServer http;
    /** For https requests; null: direct. */
    private final ProxyServer https;
    /** Why requests of a scheme cannot be routed (a proxy setting that cannot be used), or null. */
    private final String httpError;
    private final String httpsError;
    private final NoProxy noProxy;
    private final String description;

    private ShuttleProxySelector(ProxyServer http, ProxyServer https, String errors, NoProxy noProxy,
                                 String description) {
        this(http, https, errors, errors, noProxy, description);
    }

    ShuttleProxySelector(ProxyServer http, ProxyServer https, String httpError, String httpsError, NoProxy noProxy,
                         String description) {
        this.http = http;
        this.https = https;
        this.httpError = httpError;
        this.httpsError = httpsError;
        this.noProxy = noProxy == null ? NoProxy.parse(null, false) : noProxy;
        this.description = description;
    }

    public static ShuttleProxySelector none() {
        return NONE;
    }

    /** Every request through {@code proxyUrl}, but for the hosts {@code noProxy} lists. */
    public static ShuttleProxySelector of(String proxyUrl, String noProxy) {
        ProxyServer proxy = ProxyUrl.parse(proxyUrl);
        return new ShuttleProxySelector(proxy, proxy, null, NoProxy.parse(noProxy, false), proxy.toString());
    }

    /** Whether every request goes direct: then there is nothing to select. */
    public boolean alwaysDirect() {
        return http == null && https == null && httpError == null && httpsError == null;
    }

    /**
     * The proxy for requests to {@code origin}, or null to go direct.
     *
     * @throws IOException when the setting for its scheme cannot be used (an unsupported proxy scheme)
     */
    public ProxyServer proxyFor(Origin origin) throws IOException {
        boolean secure = origin.isSecure();
        String error = secure ? httpsError : httpError;
        ProxyServer proxy = secure ? https : http;
        if (proxy == null && error == null) {
            return null;
        }
        if (!noProxy.useProxy(origin.host(), origin.port())) {
            return null;
        }
        if (error != null) {
            throw new IOException(error);
        }
        return proxy;
    }

    @Override
    public List<Proxy> select(URI uri) {
        try {
            ProxyServer proxy = proxyFor(Origin.of(uri));
            return List.of(proxy == null ? Proxy.NO_PROXY : proxy.asProxy());
        } catch (IOException | IllegalArgumentException e) {
            return List.of(Proxy.NO_PROXY);
        }
    }

    @Override
    public void connectFailed(URI uri, SocketAddress address, IOException failure) {
    }

    @Override
    public String toString() {
        return description;
    }
}
