package dev.shuttle.client;

import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.time.Duration;

/**
 * The connection a request got, reported by {@link ClientTrace#gotConn}; like Go's {@code httptrace.GotConnInfo}.
 *
 * @param id            unique per client, increasing in dial order, starting at 1
 * @param origin        where it goes
 * @param localAddress  the client side of the socket
 * @param remoteAddress the server side of the socket
 * @param reused        false only for a connection dialed for this request and not used before
 * @param wasIdle       taken from the idle pool (false: freshly dialed, or handed over straight from another
 *                      request or from a background drain)
 * @param idleTime      how long it sat idle, when {@code wasIdle}; ZERO otherwise
 * @param afterDrain    handed over straight from a background drain (hand-off rule)
 * @param protocol      what the connection speaks: {@link HttpVersion#HTTP_1_1} or {@link HttpVersion#HTTP_2}
 * @param tls           the TLS session's details for an {@code https} connection, null for plaintext
 * @param proxy         the proxy the connection goes through ({@code remoteAddress} is then the proxy's: plain http
 *                      goes to it in absolute form, https through a CONNECT tunnel), or {@link Proxy#NO_PROXY}
 */
public record ConnectionInfo(long id, Origin origin, InetSocketAddress localAddress, InetSocketAddress remoteAddress,
                             boolean reused, boolean wasIdle, Duration idleTime, boolean afterDrain,
                             HttpVersion protocol, TlsInfo tls, Proxy proxy) {
    /** {@return whether the connection goes through a proxy} */
    public boolean proxied() {
        return proxy.type() != Proxy.Type.DIRECT;
    }
}
