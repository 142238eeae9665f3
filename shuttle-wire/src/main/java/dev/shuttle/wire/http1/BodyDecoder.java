package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.nio.ByteBuffer;

/**
 * Decodes one message body out of the connection's bytes, consuming exactly the bytes that belong to it and never one
 * byte of the next message. Knowing exactly where the body ends is what lets a client drain and reuse a connection.
 * Not thread-safe: owned by whichever thread reads the body.
 */
public interface BodyDecoder {
    /**
     * Moves body bytes from {@code input} to {@code output}, consuming framing (chunk lines, CRLFs, trailers) as it
     * goes; stops at the end of the body, when {@code input} is exhausted, or when {@code output} is full.
     *
     * @return the number of body bytes written to {@code output}; 0 when only framing was consumed or input is empty
     * @throws Http1Exception on malformed framing (e.g. a bad chunk size) or an over-limit chunk line or trailer
     */
    int decode(ByteBuffer input, ByteBuffer output) throws Http1Exception;

    /** Like {@link #decode} but throws away up to {@code max} body bytes instead of copying them; returns how many. */
    long skip(ByteBuffer input, long max) throws Http1Exception;

    /** True once the whole body, including a chunked body's last chunk and trailers, has been consumed. */
    boolean isComplete();

    /**
     * Tells the decoder that the peer closed the connection. A close-delimited body is complete; any other unfinished
     * body is truncated: this throws, so a short body is an error and never a silent short read.
     */
    void endOfInput() throws Http1Exception;

    /** Body bytes remaining when the framing declares them (Content-Length), or -1 when unknown (chunked, close). */
    long remainingLength();

    /** Body bytes produced so far (not counting framing). */
    long bodyBytesRead();

    /** Trailer fields of a completed chunked body; empty otherwise. */
    Headers trailers();

    static BodyDecoder create(BodyFraming framing, Http1Limits limits) {
        return switch (framing) {
            case BodyFraming.Empty empty -> new ContentLengthDecoder(0);
            case BodyFraming.ContentLength length -> new ContentLengthDecoder(length.length());
            case BodyFraming.Chunked chunked -> new ChunkedDecoder(limits);
            case BodyFraming.CloseDelimited close -> new CloseDelimitedDecoder();
        };
    }
}
