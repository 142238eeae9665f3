package dev.shuttle.server;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * The response to one request. Status and headers may change until the response is <em>committed</em>: when the
 * body outgrows the first-chunk buffer, on {@link #flush()}, or when the handler returns. Owned by the handler's
 * thread; not thread-safe.
 *
 * <p>Framing is chosen at commit, so handlers never write it themselves: an explicit {@link #contentLength(long)}
 * is sent as is; otherwise a body that fits the first-chunk buffer (8 KiB) when the handler returns gets an automatic
 * Content-Length, a larger or flushed body goes chunked (HTTP/1.1), close-delimited (HTTP/1.0) or in DATA frames
 * (HTTP/2), and setting {@link #trailers(Headers)} forces chunked on HTTP/1.1. HEAD responses carry the headers a
 * GET would get and no body. The server adds {@code Date}, and {@code Connection: close} or {@code keep-alive} as
 * needed. A {@code Content-Length} set through {@link #header} means {@link #contentLength(long)};
 * {@code Transfer-Encoding} is refused (the server frames).
 */
public interface Response {
    /**
     * Sets the status code, 200 by default. Must be 200..999 (interim 1xx responses are the server's business).
     *
     * @param status the status code
     * @return this response
     */
    Response status(int status);

    /** {@return the status code set so far} */
    int status();

    /**
     * Replaces every field named {@code name} with one field.
     *
     * @param name the field name
     * @param value the field value
     * @return this response
     */
    Response header(String name, String value);

    /**
     * Adds a field, keeping existing fields of that name.
     *
     * @param name the field name
     * @param value the field value
     * @return this response
     */
    Response addHeader(String name, String value);

    /**
     * Removes every field named {@code name}.
     *
     * @param name the field name
     * @return this response
     */
    Response removeHeader(String name);

    /** {@return the fields set so far (without the ones the server adds at commit)} */
    Headers headers();

    /**
     * Declares the body length: the body must then be exactly this long, or the response is cut off (HTTP/1.1: the
     * connection is closed; HTTP/2: the stream is reset).
     *
     * @param length the body's length in bytes
     * @return this response
     */
    Response contentLength(long length);

    /**
     * Trailer fields sent after the body (HTTP/1.1: after a chunked body; HTTP/2: as a last HEADERS frame); may be
     * called until the handler returns. On HTTP/1.1 it forces chunked framing when called before commit, and the
     * trailers are dropped (and logged) when the response is not chunked: HTTP/1.0 clients or an explicit
     * Content-Length.
     *
     * @param trailers the trailer fields
     * @return this response
     */
    Response trailers(Headers trailers);

    /**
     * {@return the body stream} Writes are buffered; {@code close()} ends the body (and must come only after the last
     * write); the handler need not close it.
     */
    OutputStream body();

    /**
     * Writes {@code count} bytes of {@code file}, from {@code position}, as (the next part of) the body; the file's own
     * position is left alone. On plaintext HTTP/1.1, for a response with a declared {@link #contentLength}, the bytes
     * go from the file to the socket without passing through the Java heap ({@link FileChannel#transferTo}: sendfile
     * on Linux); otherwise (TLS, HTTP/2, chunked) they are copied through {@link #body()} in chunks.
     *
     * @param file an open file to read from
     * @param position where in the file to start
     * @param count how many bytes to send
     * @throws IOException when the file holds fewer bytes, or the write fails
     */
    default void writeFile(FileChannel file, long position, long count) throws IOException {
        OutputStream out = body();
        // Chunks of one HTTP/2 DATA frame, one TLS record.
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(Math.max(count, 1), 16 * 1024));
        long done = 0;
        while (done < count) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), count - done));
            int n = file.read(chunk, position + done);
            if (n < 0) {
                throw new IOException("the file ended " + (count - done) + " bytes before the body did");
            }
            out.write(chunk.array(), 0, n);
            done += n;
        }
    }

    /**
     * Commits the response (if not yet) and pushes every written byte to the client, e.g. for server-sent events.
     *
     * @throws IOException when writing fails or the client went away ({@link ClientGoneException})
     */
    void flush() throws IOException;

    /** {@return whether the head was sent (or is being sent): status and headers can no longer change} */
    boolean isCommitted();

    /**
     * Writes {@code body} and ends the body. When nothing was written before, it is the whole body and the response
     * gets a Content-Length of its size; after earlier writes it is appended to them (a response not committed yet
     * still gets an automatic Content-Length when the whole body fits the first-chunk buffer). Failures after the
     * commit end the response as {@link Handler} describes.
     *
     * @param body the (rest of the) body
     * @throws IOException when writing fails or the client went away ({@link ClientGoneException})
     */
    default void send(byte[] body) throws IOException {
        OutputStream out = body();
        out.write(body);
        out.close();
    }

    /**
     * Writes {@code text} as UTF-8, adding {@code Content-Type: text/plain; charset=utf-8} if none was set.
     *
     * @param text the (rest of the) body
     * @throws IOException when writing fails or the client went away ({@link ClientGoneException})
     */
    default void send(String text) throws IOException {
        if (!isCommitted() && !headers().contains("Content-Type")) {
            header("Content-Type", "text/plain; charset=utf-8");
        }
        send(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sets the status and sends {@code text}.
     *
     * @param status the status code
     * @param text the body
     * @throws IOException when writing fails or the client went away ({@link ClientGoneException})
     */
    default void send(int status, String text) throws IOException {
        status(status);
        send(text);
    }
}
