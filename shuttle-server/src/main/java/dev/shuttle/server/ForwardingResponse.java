package dev.shuttle.server;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A {@link Response} that passes every call to another: a middleware extends it and overrides what it changes (a body
 * stream that compresses or counts, headers added at commit). Every method, the defaults included, is forwarded, so
 * wrappers stack and the server's own implementations (zero-copy file transfer among them) stay reachable.
 */
public class ForwardingResponse implements Response {
    private final Response delegate;

    /**
     * A response forwarding every call to {@code delegate}.
     *
     * @param delegate the response to forward to
     */
    public ForwardingResponse(Response delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The wrapped response.
     *
     * @return the response this one forwards to
     */
    public final Response delegate() {
        return delegate;
    }

    @Override
    public Response status(int status) {
        delegate.status(status);
        return this;
    }

    @Override
    public int status() {
        return delegate.status();
    }

    @Override
    public Response header(String name, String value) {
        delegate.header(name, value);
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        delegate.addHeader(name, value);
        return this;
    }

    @Override
    public Response removeHeader(String name) {
        delegate.removeHeader(name);
        return this;
    }

    @Override
    public Headers headers() {
        return delegate.headers();
    }

    @Override
    public Response contentLength(long length) {
        delegate.contentLength(length);
        return this;
    }

    @Override
    public Response trailers(Headers trailers) {
        delegate.trailers(trailers);
        return this;
    }

    @Override
    public OutputStream body() {
        return delegate.body();
    }

    @Override
    public void flush() throws IOException {
        delegate.flush();
    }

    @Override
    public boolean isCommitted() {
        return delegate.isCommitted();
    }

    /**
     * The wrapped response's {@code send}, which declares the body's Content-Length, when this class leaves
     * {@link #body()} alone; through this class's {@code body()} when it overrides it (a compressing or counting
     * stream must see the bytes).
     */
    @Override
    public void send(byte[] body) throws IOException {
        if (OVERRIDES_BODY.get(getClass())) {
            OutputStream out = body();
            out.write(body);
            out.close();
        } else {
            delegate.send(body);
        }
    }

    /** The wrapped response's (zero-copy where it can), unless this class overrides {@link #body()}. */
    @Override
    public void writeFile(FileChannel file, long position, long count) throws IOException {
        if (OVERRIDES_BODY.get(getClass())) {
            Response.super.writeFile(file, position, count);
        } else {
            delegate.writeFile(file, position, count);
        }
    }

    /** Whether a subclass declares its own {@code body()}. */
    private static final ClassValue<Boolean> OVERRIDES_BODY = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("body").getDeclaringClass() != ForwardingResponse.class;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    @Override
    public String toString() {
        return delegate.toString();
    }
}
