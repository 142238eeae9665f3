package dev.shuttle.mockserver;

/**
 * Chooses the response to each request; runs on the request's own virtual thread and may block. Requests on one
 * HTTP/2 connection, and on different connections, are dispatched concurrently, so a dispatcher must be thread-safe.
 */
@FunctionalInterface
public interface Dispatcher {
    /**
     * Chooses the response to {@code request}.
     *
     * @param request the request, its body read whole
     * @return the response to send; null is answered with a 500
     * @throws Exception to answer 500 with its stack trace
     */
    MockResponse dispatch(RecordedRequest request) throws Exception;
}
