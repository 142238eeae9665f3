package dev.shuttle.client.drain;

import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyInputStream;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;

/**
 * A response body whose caller closed it before its end, as the {@link Drainer} sees it. Whoever drains owns the
 * decoder and the source: first the closing thread (inline), then the background drain thread.
 */
public interface DrainTarget {
    /** The body's stream over {@link #decoder()} and {@link #source()}, for the inline (non-blocking) skip. */
    BodyInputStream stream();

    BodyDecoder decoder();

    Http1Source source();

    /** Blocking reads of {@link #source()} fail with a timeout once {@code deadline} (pool clock) passes. */
    void drainDeadline(long deadline);

    /** False when the connection cannot carry another exchange whatever happens (Connection: close, ...). */
    boolean connectionReusable();

    Lease lease();

    /** Closes the socket (the lease is released separately). */
    void abortConnection(IOException reason);

    /** Called exactly once, after the lease was released: reports the outcome to trace and stats. */
    void finished(DrainOutcome outcome, long bytesDiscarded);
}
