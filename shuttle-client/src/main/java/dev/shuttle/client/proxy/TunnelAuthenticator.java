package dev.shuttle.client.proxy;

import dev.shuttle.client.Origin;
import dev.shuttle.wire.Headers;
import java.io.IOException;

/** Answers a proxy's 407 to a {@code CONNECT}: the client's proxy authenticator, seen from the tunnel. */
@FunctionalInterface
public interface TunnelAuthenticator {
    /** The one the client has when it has none: every 407 is the answer. */
    TunnelAuthenticator NONE = (target, proxy, status, reason, headers, sent) -> null;

    /**
     * @param sent the {@code Proxy-Authorization} the refused CONNECT carried, or null
     * @return the {@code Proxy-Authorization} to try next, or null to give up
     */
    String authorize(Origin target, ProxyServer proxy, int status, String reason, Headers headers, String sent)
            throws IOException;
}
