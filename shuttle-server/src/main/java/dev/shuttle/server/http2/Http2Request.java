package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.Request;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.Http2RequestHead;
import java.io.InputStream;
import java.net.InetSocketAddress;

/**
 * The handler's view of an HTTP/2 request: the same {@link Request} as HTTP/1.1's. The target is {@code :path}; the
 * headers carry a {@code host} field made from {@code :authority} when the client sent none, so handlers that read
 * {@code Host} work for both protocols (as Go's {@code Request.Host} does). Owned by the handler's thread.
 */
final class Http2Request implements Request {
    private final Http2RequestHead head;
    private final Headers headers;
    private final Http2RequestBody body;
    private final ConnectionInfo connection;
    private final String path;
    private final String query;

    Http2Request(Http2RequestHead head, Http2RequestBody body, ConnectionInfo connection) {
        this.head = head;
        Headers fields = head.headers();
        if (head.authority() != null && !fields.contains("host")) {
            fields = fields.toBuilder().add("host", head.authority()).build();
        }
        this.headers = fields;
        this.body = body;
        this.connection = connection;
        String target = head.path() == null ? "" : head.path();
        int queryStart = target.indexOf('?');
        this.path = queryStart < 0 ? target : target.substring(0, queryStart);
        this.query = queryStart < 0 ? null : target.substring(queryStart + 1);
    }

    @Override
    public String method() {
        return head.method();
    }

    @Override
    public String target() {
        return head.path() == null ? head.authority() : head.path();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public HttpVersion version() {
        return HttpVersion.HTTP_2;
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public long contentLength() {
        return body.declaredLength();
    }

    @Override
    public Headers trailers() {
        return body.trailers();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public ConnectionInfo connection() {
        return connection;
    }

    @Override
    public Cancellation cancellation() {
        return body.cancellation();
    }

    @Override
    public String toString() {
        return head.method() + " " + target() + " HTTP/2";
    }
}
