package dev.shuttle.server;

import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.SessionFactory;
import dev.shuttle.server.http1.Http1Session;
import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.http2.Http2Session;
import java.util.List;

/** The server's protocols: HTTP/2 where ALPN or the preface says so and it is enabled, HTTP/1.1 otherwise. */
final class Protocols implements SessionFactory {
    private final Http2Options http2;

    Protocols(Http2Options http2) {
        this.http2 = http2;
    }

    @Override
    public ProtocolSession create(ServerConnection connection, String applicationProtocol) {
        if (http2.enabled() && "h2".equals(applicationProtocol)) {
            return new Http2Session(connection, http2);
        }
        return new Http1Session(connection, KeepAliveTurn.YIELD, http2.enabled() && http2.cleartext() ? http2 : null);
    }

    /**
     * {@code h2} when offered and enabled, else {@code http/1.1}; no ALPN for a client that offers none; and a
     * {@code no_application_protocol} alert for a client that offers only protocols this server does not speak (as
     * Go does: better than a connection that fails on its first frame).
     */
    @Override
    public String selectApplicationProtocol(List<String> offered) {
        if (offered.isEmpty()) {
            return "";
        }
        if (http2.enabled() && offered.contains("h2")) {
            return "h2";
        }
        return offered.contains("http/1.1") ? "http/1.1" : null;
    }

    @Override
    public boolean cleartextHttp2() {
        return http2.enabled() && http2.cleartext();
    }
}
