package dev.shuttle.server.io;

/**
 * Where a connection's {@link ConnectionInput} and {@link ConnectionOutput} add up the application bytes they move.
 * The connection keeps the totals, because those two live only while a thread works on it: a parked connection holds
 * neither, and its counters must survive the park.
 */
public interface ByteCounts {
    /** {@code n} application bytes were received. Called by the connection's reading thread. */
    void countRead(int n);

    /** {@code n} application bytes were handed to the transport. Called by one writer at a time. */
    void countWritten(int n);
}
