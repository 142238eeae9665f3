package dev.shuttle.lab.servers;

/** A started server under test. */
public interface RunningServer extends AutoCloseable {
    /** The bound port on 127.0.0.1. */
    int port();

    /** Stops the server; errors are the caller's to ignore, since the JVM exits right after. */
    @Override
    void close() throws Exception;
}
