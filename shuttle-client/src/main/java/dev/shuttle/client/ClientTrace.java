package dev.shuttle.client;

import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.time.Duration;
import java.util.List;

/**
 * Per-request events, like Go's {@code httptrace.ClientTrace}. Every method defaults to a no-op; implement the ones
 * you need. Register one client-wide ({@link HttpClient.Builder#trace}) and/or per request
 * ({@link Request.Builder#trace}); both receive every event.
 *
 * <p>Order, for one attempt (brackets: only sometimes):
 * <pre>
 * getConn
 *   [handOff]                          no idle HTTP/1.1 connection: why it waited, dialed or took a spare
 *   [dnsStart → dnsDone]                a dial was started for this request
 *   [connectStart → connectDone]...     one per address tried (the proxy's, through a proxy)
 *   [tunnelStart → tunnelDone]          https through a proxy: its CONNECT
 *   [tlsHandshakeStart → tlsHandshakeDone] https, on the connection that connected
 * gotConn
 * wroteHeaders → wroteRequest
 * gotFirstResponseByte
 * ... the caller reads the body ...
 * bodyClosed                           once, when the body's fate is known
 * </pre>
 * A failed attempt on a reused connection that is retried fires {@code retrying} and starts again at
 * {@code getConn}; a redirect or an authentication round fires {@code followUp} and does the same for the next hop.
 *
 * <p>Which request an event belongs to: a per-request trace knows; a client-wide one that needs to know is registered
 * as a {@link Factory}, which makes a trace for each call from its request ({@link HttpClient.Builder#traceFactory}),
 * as OkHttp's {@code EventListener.Factory} does.
 *
 * <p>Rules: methods must be fast and must not throw (an exception is logged and ignored). They may run on threads
 * other than the caller's: {@code connectStart/connectDone} and the TLS handshake events run on the dialing thread, and a request may get a
 * connection freed by another request before its own dial finishes ({@code connectDone} then comes after
 * {@code gotConn}, and the dialed connection goes to the pool). {@code bodyClosed} for a background drain runs on
 * the drain's thread when the drain ends, after {@code close()} returned.
 */
public interface ClientTrace {
    /** The trace that ignores every event: the default of clients and requests. */
    ClientTrace NONE = new ClientTrace() {
    };

    /** Makes the trace of one call, knowing its request; runs on the calling thread before anything is sent. */
    @FunctionalInterface
    interface Factory {
        /**
         * {@return the trace for the call of {@code request}: a new one, or {@link #NONE} for calls of no interest}
         *
         * @param request the call's request, as the caller built it
         */
        ClientTrace create(Request request);
    }

    /**
     * The request asks the pool for a connection to {@code origin}.
     *
     * @param origin the origin the request goes to
     */
    default void getConn(Origin origin) {
    }

    /**
     * The request found no idle HTTP/1.1 connection and the drain policy's hand-off rule decided what to do: wait for
     * a draining connection, dial, dial a spare beside the wait, or wait for a spare already on its way. Fired on the
     * requesting thread before the connection is handed over (not for HTTP/2 origins, nor with a policy without
     * hand-off).
     *
     * @param decision what the rule chose, and the estimates it chose by
     */
    default void handOff(HandOffDecision decision) {
    }

    /**
     * A connection dialed for this request is open, but the pool holds it back: new connections to {@code origin} answer
     * their first request only {@code readyIn} from now (a server or proxy slow to accept, a relay), later than the
     * drain this request waits for is expected to end. The request takes whichever comes first: the drained connection,
     * or this one after {@code hold} (the drain's estimate plus the spare wait, at most {@code readyIn}); a connection
     * it does not take goes to the next request once it could answer. Fired on the dialing thread (HTTP/1.1, default
     * policy).
     *
     * @param origin the origin the held connection belongs to
     * @param hold how long the pool holds the connection back at most
     * @param readyIn how long until the new connection is expected to answer
     */
    default void dialHeld(Origin origin, Duration hold, Duration readyIn) {
    }

    /**
     * Name resolution of {@code host} begins (skipped for address literals).
     *
     * @param host the host name to resolve
     */
    default void dnsStart(String host) {
    }

    /**
     * Name resolution ended; {@code addresses} is empty and {@code error} non-null on failure.
     *
     * @param host the host name that was resolved
     * @param addresses its addresses in the order they will be tried; empty on failure
     * @param error why resolution failed, or null
     */
    default void dnsDone(String host, List<InetAddress> addresses, IOException error) {
    }

    /**
     * A TCP connect to {@code address} begins.
     *
     * @param origin the origin of the request; through a proxy, {@code address} is the proxy's
     * @param address the address being connected to
     */
    default void connectStart(Origin origin, InetSocketAddress address) {
    }

    /**
     * The TCP connect ended; {@code error} is null on success.
     *
     * @param origin the origin of the request
     * @param address the address that was tried
     * @param error why the connect failed, or null
     */
    default void connectDone(Origin origin, InetSocketAddress address, IOException error) {
    }

    /**
     * A {@code CONNECT} tunnel to {@code origin} through {@code proxy} begins: the connection to the proxy is up
     * ({@code connectDone} came for the proxy's address).
     *
     * @param origin the origin the tunnel leads to
     * @param proxy the proxy asked to open it
     */
    default void tunnelStart(Origin origin, Proxy proxy) {
    }

    /**
     * The proxy answered the tunnel's {@code CONNECT}: open when {@code error} is null (the TLS handshake with the
     * origin follows), else why not (a 407 answered on a new connection comes as an error, then a new
     * {@code connectStart}).
     *
     * @param origin the origin the tunnel leads to
     * @param proxy the proxy that answered
     * @param error why the tunnel was not opened, or null
     */
    default void tunnelDone(Origin origin, Proxy proxy, IOException error) {
    }

    /**
     * A TLS handshake with {@code origin} begins (https, on a new connection).
     *
     * @param origin the origin whose certificate is checked
     */
    default void tlsHandshakeStart(Origin origin) {
    }

    /**
     * The TLS handshake ended: {@code tls} says what it settled (protocol, cipher suite, ALPN, resumed, time), or
     * {@code error} why it failed (then {@code tls} is null).
     *
     * @param origin the origin the handshake was with
     * @param tls what the handshake settled, or null on failure
     * @param error why it failed, or null
     */
    default void tlsHandshakeDone(Origin origin, TlsInfo tls, IOException error) {
    }

    /**
     * The request has its connection.
     *
     * @param connection the connection: new or reused ({@link ConnectionInfo#reused()}), HTTP/1.1 or HTTP/2
     *     ({@link ConnectionInfo#protocol()})
     */
    default void gotConn(ConnectionInfo connection) {
    }

    /** The request head was written (buffered; flushed with the body). */
    default void wroteHeaders() {
    }

    /**
     * The whole request was written and flushed; {@code error} is null on success.
     *
     * @param error why writing failed, or null
     */
    default void wroteRequest(IOException error) {
    }

    /** The first byte of the response arrived. */
    default void gotFirstResponseByte() {
    }

    /**
     * An attempt on a reused connection failed before any response byte and the request will be sent again.
     *
     * @param cause the failure of the attempt that is retried
     */
    default void retrying(IOException cause) {
    }

    /**
     * The response with {@code status} is answered by sending {@code next} in the same call, without the caller
     * seeing it: a redirect followed, or the request again with credentials for a 401 or 407. The events of
     * {@code next}'s exchange follow, from {@code getConn}; the closed response's {@code bodyClosed} may come before
     * or after this (a background drain).
     *
     * @param status the status of the response answered (3xx, 401 or 407)
     * @param next the request the call sends next
     */
    default void followUp(int status, Request next) {
    }

    /**
     * The body was closed and what happens to its connection is decided.
     *
     * @param bytesRead      body bytes the caller read
     * @param outcome        what became of the connection
     * @param bytesDiscarded body bytes the client read and threw away to reuse (or try to reuse) the connection
     */
    default void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
    }
}
