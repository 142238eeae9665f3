package dev.shuttle.server;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A request and a recording response without a server, for table tests of handlers and middleware (router, file
 * server, compression) that need hundreds of cases and no sockets.
 */
public final class FakeExchange {
    private FakeExchange() {
    }

    /** A request for {@code target} ({@code /path?query}), its Host and other fields given in name, value pairs. */
    public static Request request(String method, String target, String... fields) {
        Headers.Builder headers = Headers.builder();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(fields[i], fields[i + 1]);
        }
        return new FakeRequest(method, target, headers.build(), new byte[0]);
    }

    public static Request request(String method, String target, byte[] body, String... fields) {
        Headers.Builder headers = Headers.builder();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(fields[i], fields[i + 1]);
        }
        return new FakeRequest(method, target, headers.build(), body);
    }

    private record FakeRequest(String method, String target, Headers headers, byte[] bodyBytes0) implements Request {
        @Override
        public String path() {
            int q = target.indexOf('?');
            return q < 0 ? target : target.substring(0, q);
        }

        @Override
        public String query() {
            int q = target.indexOf('?');
            return q < 0 ? null : target.substring(q + 1);
        }

        @Override
        public HttpVersion version() {
            return HttpVersion.HTTP_1_1;
        }

        @Override
        public InputStream body() {
            return new ByteArrayInputStream(bodyBytes0);
        }

        @Override
        public long contentLength() {
            return bodyBytes0.length;
        }

        @Override
        public Headers trailers() {
            return Headers.EMPTY;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public ConnectionInfo connection() {
            return null;
        }

        @Override
        public String toString() {
            return method + " " + target;
        }
    }

    /** A response that records what the handler did; committed at the first flush or body close. */
    public static final class Recorded implements Response {
        private int status = 200;
        private final Headers.Builder headers = Headers.builder();
        private long contentLength = -1;
        private Headers trailers = Headers.EMPTY;
        private boolean committed;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final OutputStream body = new OutputStream() {
            @Override
            public void write(int b) {
                bytes.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                bytes.write(b, off, len);
            }

            @Override
            public void flush() {
                committed = true;
            }

            @Override
            public void close() {
                committed = true;
            }
        };

        @Override
        public Response status(int status) {
            checkOpen();
            this.status = status;
            return this;
        }

        @Override
        public int status() {
            return status;
        }

        @Override
        public Response header(String name, String value) {
            checkOpen();
            headers.set(name, value);
            return this;
        }

        @Override
        public Response addHeader(String name, String value) {
            checkOpen();
            headers.add(name, value);
            return this;
        }

        @Override
        public Response removeHeader(String name) {
            checkOpen();
            headers.remove(name);
            return this;
        }

        @Override
        public Headers headers() {
            return headers.build();
        }

        @Override
        public Response contentLength(long length) {
            checkOpen();
            this.contentLength = length;
            return this;
        }

        public long declaredLength() {
            return contentLength;
        }

        @Override
        public Response trailers(Headers trailers) {
            this.trailers = trailers;
            return this;
        }

        public Headers trailers() {
            return trailers;
        }

        @Override
        public OutputStream body() {
            return body;
        }

        @Override
        public void flush() {
            committed = true;
        }

        @Override
        public boolean isCommitted() {
            return committed;
        }

        private void checkOpen() {
            if (committed) {
                throw new IllegalStateException("response already committed");
            }
        }

        public String header(String name) {
            return headers.build().first(name);
        }

        public byte[] bodyBytes() {
            return bytes.toByteArray();
        }

        public String bodyText() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** Runs {@code handler} on the request and returns what it answered. */
    public static Recorded serve(Handler handler, Request request) throws Exception {
        Recorded response = new Recorded();
        handler.handle(request, response);
        return response;
    }
}
