package dev.shuttle.server.http1;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.Request;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.RequestHead;
import java.io.InputStream;
import java.net.InetSocketAddress;

/** The handler's view of an HTTP/1 request. Owned by the connection thread. */
final class ServerRequest implements Request {
    private final RequestHead head;
    private final BodyDecoder decoder;
    private final RequestBodyStream body;
    private final ConnectionInfo connection;
    /** Null only in tests of the target parsing. */
    private final Http1Exchange exchange;
    private final long contentLength;
    private final String path;
    private final String query;

    ServerRequest(RequestHead head, BodyFraming framing, BodyDecoder decoder, RequestBodyStream body,
                  ConnectionInfo connection, Http1Exchange exchange) {
        this.head = head;
        this.exchange = exchange;
        this.contentLength = switch (framing) {
            case BodyFraming.ContentLength length -> length.length();
            case BodyFraming.Empty empty -> 0;
            case BodyFraming.Chunked chunked -> -1;
            case BodyFraming.CloseDelimited close -> -1;
        };
        this.decoder = decoder;
        this.body = body;
        this.connection = connection;
        String target = head.target();
        int pathStart = pathStart(target, head.method());
        int queryStart = target.indexOf('?', pathStart);
        String rawPath = queryStart < 0 ? target.substring(pathStart) : target.substring(pathStart, queryStart);
        this.path = rawPath.isEmpty() && !"CONNECT".equals(head.method()) ? "/" : rawPath;
        this.query = queryStart < 0 ? null : target.substring(queryStart + 1);
    }

    /** Where the path begins: 0 for origin form and {@code *}; after the authority for absolute form. */
    private static int pathStart(String target, String method) {
        if (target.startsWith("/") || target.equals("*")) {
            return 0;
        }
        if ("CONNECT".equals(method)) {
            return target.length(); // authority form: no path
        }
        int scheme = target.indexOf("://");
        if (scheme < 0) {
            return 0;
        }
        int slash = target.indexOf('/', scheme + 3);
        int question = target.indexOf('?', scheme + 3);
        if (slash < 0 || (question >= 0 && question < slash)) {
            return question < 0 ? target.length() : question;
        }
        return slash;
    }

    @Override
    public String method() {
        return head.method();
    }

    @Override
    public String target() {
        return head.target();
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
        return head.version();
    }

    @Override
    public Headers headers() {
        return head.headers();
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public Headers trailers() {
        return decoder.isComplete() ? decoder.trailers() : Headers.EMPTY;
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
        return exchange.cancellation();
    }

    @Override
    public String toString() {
        return head.method() + " " + head.target() + " " + head.version();
    }
}
