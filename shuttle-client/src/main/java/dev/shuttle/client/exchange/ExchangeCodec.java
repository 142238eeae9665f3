package dev.shuttle.client.exchange;

import java.io.IOException;

/**
 * One attempt of a request on a leased connection, whatever the protocol: writes the request, reads the final
 * response head, then hands the connection (HTTP/1.1) or the stream (HTTP/2) to the response body. Runs on the calling
 * thread, apart from {@link #abort}, which may come from any thread.
 *
 * <p>Owns the attempt's lease until {@link #openBody} passes it to the body, or {@link #fail} releases it.
 */
public interface ExchangeCodec {
    /** Writes the request and reads the final response head (interim 1xx heads are skipped). */
    ResponseStart send() throws IOException;

    /**
     * Hands the attempt to the body of {@code head}. An empty body (HEAD, 204, 304, a zero length) settles before this
     * returns.
     *
     * @param onSettled run once the body's end, failure or close settled the call (cancels the call timeout)
     */
    ResponseBody openBody(ResponseStart head, Runnable onSettled) throws IOException;

    /** Whether any byte of the response arrived: after that, a failed request is never retried. */
    boolean responseStarted();

    /** The attempt failed before a body took over: what it holds is closed or reset, and released. */
    void fail(IOException cause);

    /**
     * Stops the attempt from another thread (the call timeout), unblocking its reads and writes. Once the attempt has
     * released its lease this does nothing: the connection may be another call's by then.
     */
    void abort(IOException reason);

    /** Why the attempt was aborted, or null. */
    IOException abortReason();

    /**
     * Whether the attempt failed in a way that proves the server never processed the request, so that it may be
     * sent again whatever its method: HTTP/2's REFUSED_STREAM, a stream above a GOAWAY's last stream id, or a stream
     * whose HEADERS never left. HTTP/1.1 cannot tell, hence false.
     */
    default boolean unprocessed() {
        return false;
    }
}
