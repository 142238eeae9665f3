package dev.shuttle.server;

/**
 * Serves one request. Runs on a virtual thread of its own, so it may block (read the body, call other services,
 * sleep) without tying up anything but itself.
 *
 * <p>When it returns, the server finishes the response: an uncommitted response is sent with a Content-Length (or
 * chunked when trailers were set), an open chunked body gets its last chunk.
 *
 * <p>If it throws before the response was committed, the client gets a 500 (or the status of a request-body error
 * such as 400, 408 or 413). If it throws after the commit, or its body breaks the response's own framing (more or
 * fewer bytes than a declared Content-Length), the response ends so that the client can tell: on HTTP/1.1 what was
 * written is sent and the connection closed after it (the client sees a body short of its Content-Length, or chunks
 * without the last one), on HTTP/2 the stream is reset with INTERNAL_ERROR. The failure is logged once, at WARNING,
 * or at DEBUG when the client going away is what broke the exchange.
 *
 * <p>Interrupts: on HTTP/2 the handler's thread writes its frames to a connection that other streams share, and an
 * interrupted socket write would close it for all of them. So a response write made while the handler's thread has an
 * interrupt pending sends nothing and throws {@link java.io.InterruptedIOException}, the interrupt kept; if the handler
 * then throws, its own stream is answered as above and the connection's other streams go on. An interrupt that lands
 * during a socket write still closes the connection: to stop a handler, cancel its request's
 * {@link Request#cancellation()} rather than interrupting its thread.
 */
@FunctionalInterface
public interface Handler {
    /**
     * Answers {@code request} through {@code response}, on the request's own virtual thread (HTTP/1.1 and HTTP/2
     * alike), so it may block. The response is finished when this returns.
     *
     * @param request the request, its body not yet read
     * @param response the response to fill in
     * @throws Exception to answer 500 when nothing was sent yet, else to cut the response off
     */
    void handle(Request request, Response response) throws Exception;
}
