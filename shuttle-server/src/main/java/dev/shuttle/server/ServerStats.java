package dev.shuttle.server;

/**
 * A snapshot of the server's connection counters. Totals only grow; gauges are the connections in that state now.
 * Each field is read atomically, the snapshot as a whole is not (a connection moving between states while the
 * snapshot is taken may be seen in both or neither).
 *
 * @param accepted total connections accepted (the lab's "new connections")
 * @param open     gauge: connections not yet closed (new + active + idle + parked)
 * @param active   gauge: connections reading a request, running a handler or writing a response
 * @param idle     gauge: connections between requests that still hold their thread
 * @param parked   gauge: idle connections held by the readiness watcher, without thread or read buffer
 * @param closed   total connections closed
 * @param requests total request heads parsed: handed to the handler, or rejected for their framing or body size
 *                 (HTTP/2: streams opened)
 * @param streams  gauge: HTTP/2 streams open or with a handler still running, over all connections
 */
public record ServerStats(long accepted, long open, long active, long idle, long parked, long closed, long requests,
                          long streams) {
}
