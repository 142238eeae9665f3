package dev.shuttle.server;

/**
 * Serves one request. Runs on a virtual thread of its own, so it may block (read the body, call other services,
 * sleep) without tying up anything but itself.
 *
 * <p>When it returns, the server finishes the response: an uncommitted response is sent with a Content-Length (or
 * chunked when trailers were set), an open chunked body gets its last chunk. If it throws before the response was
 * committed, the client gets a 500 (or the status of a request-body error such as 400, 408 or 413); if it throws after,
 * the connection is closed so the client sees a truncated response rather than a wrong one.
 */
@FunctionalInterface
public interface Handler {
    void handle(Request request, Response response) throws Exception;
}
