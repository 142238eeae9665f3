package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import dev.shuttle.client.proxy.ProxyServer;
import java.util.Objects;

/**
 * What the pool keeps connections apart by: the origin they serve, and the proxy they go through (null: direct). A
 * tunnel through a proxy is a connection to its origin like any other, reused by every request to that origin through
 * that proxy.
 */
public record Route(Origin origin, ProxyServer proxy) {
    public Route {
        Objects.requireNonNull(origin, "origin");
    }

    public static Route direct(Origin origin) {
        return new Route(origin, null);
    }

    public boolean isDirect() {
        return proxy == null;
    }

    @Override
    public String toString() {
        return proxy == null ? origin.toString() : origin + " via " + proxy;
    }
}
