package dev.shuttle.client;

import java.io.IOException;

/**
 * Observes, rewrites, retries or answers calls, in OkHttp's model. Two places to register one:
 * <ul>
 *   <li><b>Application interceptors</b> ({@link HttpClient.Builder#addInterceptor}) run once per call, around
 *       everything else: they see the request as the caller built it and the final response (after redirects and
 *       authentication), and may call {@link Chain#proceed} any number of times (a retry) or not at all (an answer
 *       from a cache).</li>
 *   <li><b>Network interceptors</b> ({@link HttpClient.Builder#addNetworkInterceptor}) run around each exchange on
 *       a connection: once per redirect hop, per authentication round and per retry, with the request as the
 *       client's features left it (cookies added; the fields every request gets, {@code Host}, {@code User-Agent},
 *       {@code Accept-Encoding} and the body's framing, are added by the exchange after them) and the response as it
 *       came (still compressed), and {@link Chain#connection()} says which connection carries it. They must call
 *       {@link Chain#proceed} exactly once and keep the request's origin.</li>
 * </ul>
 * The order: application interceptors in registration order, then redirects and authentication, cookies,
 * decompression, then (per exchange, with its connection) network interceptors in registration order, then the
 * exchange itself.
 *
 * <p>An interceptor that returns a response other than the one {@code proceed} gave it must close that one.
 * Interceptors run on the calling thread, and must be thread-safe: one instance serves every call.
 */
@FunctionalInterface
public interface Interceptor {
    /**
     * Handles one call (an application interceptor) or one exchange (a network interceptor): usually changes the
     * request, calls {@link Chain#proceed}, and returns or changes the response.
     *
     * @param chain the request and the rest of the chain
     * @return the response, open; the caller closes it
     * @throws IOException when the exchange fails, or to fail the call
     */
    Response intercept(Chain chain) throws IOException;

    /** The rest of the call, from one interceptor's point of view. */
    interface Chain {
        /** {@return the request as it reached this interceptor} */
        Request request();

        /**
         * Hands {@code request} to the next interceptor (or the exchange) and returns its response.
         *
         * @param request the request to send, this one's or a changed copy
         * @return the response from further down the chain
         * @throws IOException when the exchange fails
         */
        Response proceed(Request request) throws IOException;

        /** {@return the connection this exchange goes over, for a network interceptor; null for an application one} */
        ConnectionInfo connection();
    }
}
