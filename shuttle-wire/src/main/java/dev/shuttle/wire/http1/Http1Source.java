package dev.shuttle.wire.http1;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The read side of a connection as the codec sees it: a buffer of bytes received but not yet consumed, and a way to
 * receive more. The client and server implement it over their sockets; tests implement it over byte arrays.
 * One thread at a time owns a source.
 */
public interface Http1Source {
    /** Received, unconsumed bytes, in read mode (position = next byte to consume). */
    ByteBuffer buffer();

    /**
     * Blocks until more bytes have been appended to {@link #buffer()} (compacting it first as needed).
     *
     * @return the number of bytes added, or -1 when the peer closed its side
     */
    int fill() throws IOException;

    /**
     * Like {@link #fill()} but never blocks: appends only bytes that have already arrived.
     *
     * @return the number of bytes added (possibly 0), or -1 when the peer closed its side
     */
    int fillNow() throws IOException;
}
