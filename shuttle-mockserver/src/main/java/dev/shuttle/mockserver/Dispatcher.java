package dev.shuttle.mockserver;

/**
 * Chooses the response to each request; runs on the request's own virtual thread and may block. Requests on one
 * HTTP/2 connection, and on different connections, are dispatched concurrently, so a dispatcher must be thread-safe.
 */
@FunctionalInterface
public interface Dispatcher {
    MockResponse dispatch(RecordedRequest request) throws Exception;
}
