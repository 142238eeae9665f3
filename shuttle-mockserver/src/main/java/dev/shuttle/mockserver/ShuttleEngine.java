package dev.shuttle.mockserver;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The mock server on Shuttle's {@code HttpServer}: the handler plays scripts, the connection listener feeds the
 * ledger. The server already counts what matters per connection (bytes the socket accepted, requests) and reports a
 * connection's TLS handshake before its CLOSED state, so once a connection closed its counts are final; of its
 * GOAWAYs, those that did not answer the client's own ({@link MockServer#goAwaysBeforeClientClosed()}).
 */
final class ShuttleEngine implements Handler, ConnectionListener {
    private final Ledger ledger;
    private final Dispatcher dispatcher;
    private final Script.Stall stall;

    ShuttleEngine(Ledger ledger, Dispatcher dispatcher, Script.Stall stall) {
        this.ledger = ledger;
        this.dispatcher = dispatcher;
        this.stall = stall;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        ConnectionInfo connection = request.connection();
        long sequence = ledger.requestStarted(connection.id());
        boolean http2 = connection.protocol() == HttpVersion.HTTP_2;
        RecordedRequest recorded = new RecordedRequest(request.method(), request.target(), request.path(),
                request.query(), http2 ? "HTTP/2" : request.version().text(), request.headers(), request.bodyBytes(),
                connection.id(), sequence, connection.tls() != null);
        ledger.recorded(recorded);
        MockResponse script = MockServer.dispatchSafely(dispatcher, recorded);
        if (script.fault() == MockResponse.Fault.RESET && !http2) {
            script = MockResponse.text(500, "shuttle-mockserver: resetAfter() on HTTP/1.1 needs a TCP reset, which "
                    + "only MockServer.builder().rawHttp1() can send\n");
        }
        Script.play(script, new Exchange(response, http2), stall);
    }

    @Override
    public void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
        if (to == ConnectionState.NEW) {
            ledger.opened(connection.id(), connection::bytesWritten, connection::bytesRead);
        } else if (to == ConnectionState.CLOSED) {
            ledger.closed(connection.id());
        }
    }

    @Override
    public void onTlsHandshake(ConnectionInfo connection, TlsInfo tls) {
        ledger.handshake(connection.id(), tls.resumed());
    }

    @Override
    public void onGoAway(ConnectionInfo connection, GoAwayEvent goAway) {
        ledger.goAway(goAway);
    }

    /** Thrown after the body's last scripted byte was flushed: the server then closes (HTTP/1.1) or resets the stream. */
    static final class ScriptedFault extends IOException {
        ScriptedFault(String message) {
            super(message);
        }
    }

    private static final class Exchange implements Script.Exchange {
        private final Response response;
        private final boolean http2;
        private MockResponse script;

        Exchange(Response response, boolean http2) {
            this.response = response;
            this.http2 = http2;
        }

        @Override
        public void head(MockResponse script) {
            this.script = script;
            response.status(script.status());
            var fields = script.headers();
            for (int i = 0; i < fields.size(); i += 2) {
                response.addHeader(fields.get(i), fields.get(i + 1));
            }
            if (script.framing() == MockResponse.Framing.CHUNKED) {
                response.trailers(Headers.EMPTY);
            } else {
                response.contentLength(script.length());
            }
            if (script.connectionClose() && !http2) {
                response.header("Connection", "close");
            }
        }

        @Override
        public OutputStream body() {
            return response.body();
        }

        @Override
        public void flush() throws IOException {
            response.flush();
        }

        @Override
        public void end() throws IOException {
            if (script.framing() == MockResponse.Framing.CONTENT_LENGTH) {
                response.body().close();
            }
            // chunked: the server writes the end marker when the handler returns
        }

        @Override
        public void abort(boolean reset) throws IOException {
            throw new ScriptedFault("scripted " + script.fault() + ": " + script);
        }
    }
}
