package dev.shuttle.client.internal;

import dev.shuttle.client.Authenticator;
import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Dns;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.Interceptor;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.client.ResponseLimits;
import dev.shuttle.wire.http1.Http1Limits;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;

/**
 * Everything {@code HttpClient.Builder} collected, for the internals. Timeouts are null when not set.
 *
 * @param traceFactory        makes a trace per call; null: none
 * @param writeTimeout        longest sending a request may make no progress (HTTP/1.1: a blocked write; HTTP/2: no
 *                            window, or the connection's writer blocked); null: none
 * @param http2               offer HTTP/2 in ALPN for https (falling back to HTTP/1.1 when the server does not pick it)
 * @param http2PriorKnowledge speak HTTP/2 straight away to every http origin (h2c, no upgrade)
 * @param http2PingInterval   PING an HTTP/2 connection that received nothing for this long; null: never
 * @param cookieHandler       where cookies are kept; null: none
 * @param authenticator       answers 401s; null: none
 * @param proxyAuthenticator  answers proxies' 407s; null: none
 * @param proxySelector       chooses each request's proxy (never null: {@code Proxies.none()} for none)
 * @param dns                 resolves host names for new connections
 * @param compression         ask for gzip and deflate and decode them transparently
 * @param interceptors        application interceptors, in order (immutable)
 * @param networkInterceptors network interceptors, in order (immutable)
 * @param expectContinueTimeout how long a request with {@code Expect: 100-continue} waits for the server's answer
 *                            before sending its body anyway; null: for ever
 */
public record ClientSettings(Duration connectTimeout, Duration responseHeaderTimeout, Duration readTimeout,
                             Duration writeTimeout, Duration callTimeout, Duration tlsHandshakeTimeout, PoolConfig pool,
                             DrainPolicy drainPolicy, boolean keepAlive, ClientTrace trace,
                             ClientTrace.Factory traceFactory, ResponseLimits limits,
                             String userAgent, LongSupplier nanoClock, SSLContext sslContext,
                             boolean hostnameVerification, boolean http2, boolean http2PriorKnowledge,
                             Duration http2PingInterval, Duration expectContinueTimeout,
                             List<Interceptor> interceptors, List<Interceptor> networkInterceptors,
                             RedirectPolicy redirectPolicy, boolean compression, CookieHandler cookieHandler,
                             Authenticator authenticator, Authenticator proxyAuthenticator,
                             ProxySelector proxySelector, Dns dns) {

    /** The HTTP/1 codec's view of the response limits: status lines of 8 KiB, chunk lines of 4 KiB as servers use. */
    public Http1Limits http1Limits() {
        return new Http1Limits(8 * 1024, limits.maxHeaderBytes(), limits.maxHeaderCount(), 4 * 1024,
                limits.maxTrailerBytes());
    }

    /** The read timeout of {@code request}: its own when set ({@code NO_TIMEOUT}: none, null), else the client's. */
    public Duration readTimeout(Request request) {
        Duration own = request.readTimeout();
        if (own == null) {
            return readTimeout;
        }
        return own.isZero() ? null : own;
    }

    /** The call timeout of {@code request}: its own when set ({@code NO_TIMEOUT}: none, null), else the client's. */
    public Duration callTimeout(Request request) {
        Duration own = request.timeout();
        if (own == null) {
            return callTimeout;
        }
        return own.isZero() ? null : own;
    }

    /** The TLS context: the caller's, or the JDK's default (its trust store), looked up only when https is used. */
    public SSLContext tlsContext() {
        if (sslContext != null) {
            return sslContext;
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no default TLS context", e);
        }
    }

    /** A timeout in milliseconds for socket options: 0 (infinite) when none, at least 1 otherwise. */
    public static int millis(Duration timeout) {
        if (timeout == null) {
            return 0;
        }
        long ms = Math.max(1, timeout.toMillis());
        return (int) Math.min(Integer.MAX_VALUE, ms);
    }

    public static long nanos(Duration timeout) {
        if (timeout == null) {
            return Long.MAX_VALUE;
        }
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
