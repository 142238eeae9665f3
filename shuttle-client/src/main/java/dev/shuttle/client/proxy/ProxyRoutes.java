package dev.shuttle.client.proxy;

import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.pool.Route;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses each request's route: direct, or through the proxy the client's {@link ProxySelector} names. The first
 * usable answer of a selector is taken (a later one is not tried when it fails). Direct routes are kept per origin, so
 * a request that goes direct makes no object for its route. Thread-safe.
 */
public final class ProxyRoutes {
    /** Direct routes kept at most: past this many origins, a route is made per request. */
    private static final int MAX_KEPT = 1024;

    private final ProxySelector selector;
    private final ShuttleProxySelector own;
    private final ConcurrentHashMap<Origin, Route> direct = new ConcurrentHashMap<>();

    public ProxyRoutes(ProxySelector selector) {
        this.selector = selector;
        this.own = selector instanceof ShuttleProxySelector shuttle ? shuttle : null;
    }

    public Route route(Request request) throws IOException {
        Origin origin = request.origin();
        if (own != null) {
            if (own.alwaysDirect()) {
                return direct(origin);
            }
            ProxyServer proxy = own.proxyFor(origin);
            return proxy == null ? direct(origin) : new Route(origin, proxy);
        }
        List<Proxy> proxies;
        try {
            proxies = selector.select(request.uri());
        } catch (RuntimeException e) {
            throw new IOException("the proxy selector failed for " + request.uri() + ": " + e.getMessage(), e);
        }
        if (proxies == null || proxies.isEmpty()) {
            return direct(origin);
        }
        Proxy proxy = proxies.getFirst();
        return switch (proxy.type()) {
            case DIRECT -> direct(origin);
            case HTTP -> {
                if (!(proxy.address() instanceof InetSocketAddress address)) {
                    throw new IOException("proxy without an address from the proxy selector: " + proxy);
                }
                yield new Route(origin, new ProxyServer(address.getHostString(), address.getPort(), null));
            }
            case SOCKS -> throw new IOException("the proxy selector chose SOCKS proxy " + proxy.address() + " for "
                    + request.uri() + ": only HTTP proxies are spoken to");
        };
    }

    private Route direct(Origin origin) {
        Route route = direct.get(origin);
        if (route == null) {
            route = Route.direct(origin);
            if (direct.size() < MAX_KEPT) {
                direct.putIfAbsent(origin, route);
            }
        }
        return route;
    }
}
