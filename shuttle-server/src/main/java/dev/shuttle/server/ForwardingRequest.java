package dev.shuttle.server;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Request} that passes every call to another: a middleware extends it and overrides what it changes (a
 * stripped path, path values, a body read through a filter). Every method, the defaults included, is forwarded, so
 * wrappers stack.
 */
public class ForwardingRequest implements Request {
    private final Request delegate;

    /**
     * A request forwarding every call to {@code delegate}.
     *
     * @param delegate the request to forward to
     */
    public ForwardingRequest(Request delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** {@return the wrapped request} */
    public final Request delegate() {
        return delegate;
    }

    @Override
    public String method() {
        return delegate.method();
    }

    @Override
    public String target() {
        return delegate.target();
    }

    @Override
    public String path() {
        return delegate.path();
    }

    @Override
    public String query() {
        return delegate.query();
    }

    @Override
    public List<String> pathSegments() {
        return delegate.pathSegments();
    }

    @Override
    public String pathValue(String name) {
        return delegate.pathValue(name);
    }

    @Override
    public QueryParameters queryParameters() {
        return delegate.queryParameters();
    }

    @Override
    public HttpVersion version() {
        return delegate.version();
    }

    @Override
    public Headers headers() {
        return delegate.headers();
    }

    @Override
    public InputStream body() {
        return delegate.body();
    }

    @Override
    public long contentLength() {
        return delegate.contentLength();
    }

    @Override
    public Headers trailers() {
        return delegate.trailers();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return delegate.remoteAddress();
    }

    @Override
    public ConnectionInfo connection() {
        return delegate.connection();
    }

    @Override
    public Cancellation cancellation() {
        return delegate.cancellation();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
