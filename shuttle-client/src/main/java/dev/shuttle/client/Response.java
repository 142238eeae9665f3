package dev.shuttle.client;

import dev.shuttle.client.auth.ChallengeParser;
import dev.shuttle.client.body.MediaTypes;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.exchange.ResponseStart;
import dev.shuttle.client.internal.Leaks;
import dev.shuttle.client.internal.Statuses;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A response whose head has arrived; the body streams from the connection. <strong>Close it</strong>
 * (try-with-resources): closing returns the connection to the pool, draining the unread rest of the body as the
 * client's {@link DrainPolicy} allows, without blocking. A response that becomes unreachable unclosed is logged (with
 * its method and URL) and its connection closed.
 *
 * <p>The body may be consumed once, as a stream ({@link #body()}) or whole ({@link #bytes()}, {@link #string()}), or
 * thrown away while keeping the connection ({@link #discard()}). A body that ends early (the server closed the
 * connection before the declared length, or malformed chunking) fails with an {@link IOException}, never a short
 * read. Status and headers may be read from any thread; the body stream belongs to one reading thread at a time, and
 * {@link #close()} may be called from any thread, even while another reads.
 */
public final class Response implements AutoCloseable {
    /** Remaining Content-Lengths up to this are read into an exactly sized array; see {@link #readAtMost}. */
    private static final int EXACT_READ_LIMIT = 1024 * 1024;
    /** First array for a body of unknown length: a typical small JSON or text body fits without growing. */
    private static final int FIRST_READ_BYTES = 1024;

    private final Request request;
    private final ResponseStart head;
    private final ResponseBody body;
    /** The connection's details: given, or made from {@link #lease} when first asked for. */
    private ConnectionInfo connection;
    /** The exchange's lease, whose connection {@link #connection()} describes; null when the details were given. */
    private final Lease lease;
    /** What the call runs when this body settles, to stop its timer; null when nothing (see {@code RealCall}). */
    private final Runnable settle;
    /** The content coding the client decoded, or null. */
    private final String decodedEncoding;
    private final Cleaner.Cleanable leakGuard;

    Response(Request request, ResponseStart head, ResponseBody body, ConnectionInfo connection, Runnable settle) {
        this(request, head, body, connection, null, settle, null);
    }

    /**
     * The exchange's response, whose connection details are made only when asked for: most callers never ask, and
     * they cost two objects per request.
     */
    Response(Request request, ResponseStart head, ResponseBody body, Lease lease, Runnable settle) {
        this(request, head, body, null, lease, settle, null);
    }

    /** A response whose body {@code body} decodes the {@code decodedEncoding} of the one the exchange gave. */
    Response(Request request, ResponseStart head, ResponseBody body, ConnectionInfo connection, Runnable settle,
             String decodedEncoding) {
        this(request, head, body, connection, null, settle, decodedEncoding);
    }

    private Response(Request request, ResponseStart head, ResponseBody body, ConnectionInfo connection, Lease lease,
                     Runnable settle, String decodedEncoding) {
        this.request = request;
        this.head = head;
        this.body = body;
        this.connection = connection;
        this.lease = lease;
        this.settle = settle;
        this.decodedEncoding = decodedEncoding;
        body.keepReachable(this); // a caller holding only body() keeps this response, and its leak guard, alive
        // Method and URI, not the Request: its trace or body publisher are the caller's objects, which might refer
        // back to this response and keep it reachable forever. The text is built only if the response leaks.
        this.leakGuard = Leaks.register(this, body.leakAction(request.method(), request.uri()));
    }

    /** {@return the request this response answers: after redirects, the last one sent} */
    public Request request() {
        return request;
    }

    /** {@return the status code} */
    public int status() {
        return head.status();
    }

    /** {@return whether the status is 2xx: the request was received, understood and accepted (RFC 9110 15.3)} */
    public boolean isSuccessful() {
        return Statuses.isSuccessful(head.status());
    }

    /**
     * {@return whether the status is one a client follows to another URI (301, 302, 303, 307, 308) and the response
     * names one in {@code Location}: seen only when redirects are not followed, or when the policy stopped following}
     */
    public boolean isRedirect() {
        return Statuses.isRedirect(head.status()) && head.headers().contains("Location");
    }

    /** {@return the reason phrase of an HTTP/1.1 status line (possibly empty); empty for HTTP/2, which has none} */
    public String reason() {
        return head.reason();
    }

    /** {@return the protocol the response came over: HTTP/1.0, HTTP/1.1 or HTTP/2} */
    public HttpVersion version() {
        return head.version();
    }

    /** {@return the response's header fields (without those a decoded body's encoding removed)} */
    public Headers headers() {
        return head.headers();
    }

    /**
     * {@return the challenges of a 401's {@code WWW-Authenticate} or a 407's {@code Proxy-Authenticate} fields, in
     * order; empty for other statuses}
     */
    public List<AuthChallenge> challenges() {
        return switch (head.status()) {
            case 401 -> ChallengeParser.parse(head.headers().all("WWW-Authenticate"));
            case 407 -> ChallengeParser.parse(head.headers().all("Proxy-Authenticate"));
            default -> List.of();
        };
    }

    /** {@return the HTTP/2 stream that carried this exchange (odd, from 1 on each connection); 0 over HTTP/1.1} */
    public int streamId() {
        return head.streamId();
    }

    /**
     * Shortcut for {@code headers().first(name)}.
     *
     * @param name a field name, case-insensitive
     * @return the first value of that field, or null when absent
     */
    public String header(String name) {
        return head.headers().first(name);
    }

    /** {@return the connection this response came over (whether it was reused, idle time, addresses)} */
    public ConnectionInfo connection() {
        ConnectionInfo info = connection;
        if (info == null && lease != null) {
            info = RealCall.connectionInfo(lease); // a record of final fields: safe to make twice, or publish racily
            connection = info;
        }
        return info;
    }

    /**
     * Trailer fields of a chunked HTTP/1.1 body or an HTTP/2 stream's trailing HEADERS; empty when none came.
     *
     * @return the trailer fields, possibly empty
     * @throws IllegalStateException when the body has not been read to its end
     */
    public Headers trailers() {
        if (!body.isComplete()) {
            throw new IllegalStateException("trailers arrive after the body: read it to the end first");
        }
        return body.trailers();
    }

    /**
     * {@return the content coding ({@code gzip}, {@code deflate}) the client decoded by itself, whose {@code
     * Content-Encoding} and {@code Content-Length} fields it removed; null when the body is as it came}
     */
    public String decodedEncoding() {
        return decodedEncoding;
    }

    /** The body stream as the exchange gave it, for a decoding layer to read from. */
    ResponseBody rawBody() {
        return body;
    }

    /** Whether the body is known to be empty already (HEAD, 204, 304, Content-Length: 0). */
    boolean bodyIsEmpty() {
        return body.declaredLength() == 0 || (body.isComplete() && body.remainingLength() == 0);
    }

    /** Cancels the call from another thread: the body closes toward the drain policy, reads fail with {@code reason}. */
    void cancel(IOException reason) {
        body.cancel(reason);
    }

    /** The call's hook for this body's settling, or null. */
    Runnable settle() {
        return settle;
    }

    /** Whether the body was read to its end (trailers are known then). */
    boolean isComplete() {
        return body.isComplete();
    }

    /**
     * {@return the body as a stream: -1 exactly at its end, an IOException if it is cut short} Closing the stream
     * closes the response.
     */
    public InputStream body() {
        return body;
    }

    /**
     * Reads the whole body, up to the largest array a JVM can hold. For bodies from servers you do not control,
     * prefer {@link #bytes(int)}, which bounds the memory a server can make you spend.
     *
     * @return the body
     * @throws IOException when reading fails or the body is cut short
     */
    public byte[] bytes() throws IOException {
        return bytes(Integer.MAX_VALUE - 8);
    }

    /**
     * Reads the whole body and closes the response.
     *
     * @param maxBytes the most bytes read
     * @return the body
     * @throws IOException              when the body is longer than {@code maxBytes} (the response is closed, the
     *                                  rest drained or dropped per the drain policy)
     * @throws IllegalArgumentException when {@code maxBytes} is negative (the response is left open)
     */
    public byte[] bytes(int maxBytes) throws IOException {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes < 0: " + maxBytes);
        }
        try (this) {
            long declared = body.declaredLength();
            if (declared > maxBytes) {
                throw new IOException("body of " + declared + " bytes exceeds the limit of " + maxBytes);
            }
            byte[] bytes = readAtMost(maxBytes);
            if (bytes.length == maxBytes && body.read() != -1) {
                throw new IOException("body exceeds the limit of " + maxBytes + " bytes");
            }
            return bytes;
        }
    }

    /**
     * The rest of the body, at most {@code maxBytes}. A remaining Content-Length up to {@link #EXACT_READ_LIMIT} is
     * read into an array of exactly that size: one allocation, no copy (InputStream.readNBytes would allocate a 16 KiB
     * chunk and copy it, 17 KiB for a 1 KiB body). Longer or undeclared lengths grow an array by doubling, so a server
     * that declares much more than it sends cannot make us allocate it up front.
     */
    private byte[] readAtMost(int maxBytes) throws IOException {
        long remaining = body.remainingLength();
        if (remaining >= 0 && remaining <= Math.min(EXACT_READ_LIMIT, maxBytes)) {
            byte[] exact = new byte[(int) remaining];
            int n = body.readNBytes(exact, 0, exact.length);
            return n == exact.length ? exact : Arrays.copyOf(exact, n);
        }
        int initial = remaining >= 0 ? EXACT_READ_LIMIT : FIRST_READ_BYTES;
        byte[] buffer = new byte[Math.min(initial, maxBytes)];
        int count = 0;
        while (true) {
            if (count == buffer.length) {
                if (count == maxBytes) {
                    return buffer; // the caller checks that nothing follows
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(maxBytes, 2L * count));
            }
            int n = body.read(buffer, count, buffer.length - count);
            if (n < 0) {
                return count == buffer.length ? buffer : Arrays.copyOf(buffer, count);
            }
            count += n;
        }
    }

    /**
     * Reads the whole body as text in the charset of its Content-Type (UTF-8 when none is named) and closes. For
     * bodies from servers you do not control, prefer {@link #string(int)}.
     *
     * @return the body as text
     * @throws IOException when reading fails or the body is cut short
     */
    public String string() throws IOException {
        return new String(bytes(), charset());
    }

    /**
     * As {@link #string()}, reading at most {@code maxBytes} of body.
     *
     * @param maxBytes the most bytes read
     * @return the body as text
     * @throws IOException when the body is longer (the response is closed)
     */
    public String string(int maxBytes) throws IOException {
        return new String(bytes(maxBytes), charset());
    }

    /**
     * Reads the rest of the body to its end, throwing it away, and closes: the connection is reused whatever its
     * size, at the price of receiving it all. {@link #close()} alone drains within the policy's caps.
     *
     * @throws IOException when reading fails or the body is cut short; the connection is closed then
     */
    public void discard() throws IOException {
        try (this) {
            body.skipToEnd();
        }
    }

    /**
     * Closes the body; never blocks on the network. The connection goes back to the pool when the body was read to
     * its end or could be drained, per the client's {@link DrainPolicy}. Idempotent; safe from any thread.
     */
    @Override
    public void close() {
        body.close();
        leakGuard.clean(); // unregisters; the action sees the body closed and does nothing
    }

    private Charset charset() {
        return MediaTypes.charset(head.headers().first("Content-Type"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Response[" + head.status() + " " + request + "]";
    }
}
