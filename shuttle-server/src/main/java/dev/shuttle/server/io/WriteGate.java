package dev.shuttle.server.io;

import java.io.IOException;

/**
 * Something that holds a connection's channel while nothing is written to it (the HTTP/1.1 peer-close watch) and
 * hands it back around each socket write of the connection's {@link ConnectionOutput}, which also reports a failed
 * write to it. Called on the thread that writes.
 */
public interface WriteGate {
    /** Before a socket write: give the channel back, in blocking mode, to the writing thread. */
    void beforeWrite() throws IOException;

    /** After the write (whether it succeeded): the channel may be watched again. */
    void afterWrite();

    /** A write failed: the client went away (reset, broken pipe) or stopped reading until the write timed out. */
    void writeFailed(IOException failure);
}
