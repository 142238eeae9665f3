package dev.shuttle.server.http1;

import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.SessionFactory;
import java.util.List;

/** Sessions for white-box tests of the engine: HTTP/1.1 only, with the keep-alive turn the test stages. */
final class Http1Only implements SessionFactory {
    private final KeepAliveTurn turn;

    Http1Only(KeepAliveTurn turn) {
        this.turn = turn;
    }

    @Override
    public ProtocolSession create(ServerConnection connection, String applicationProtocol) {
        return new Http1Session(connection, turn, null);
    }

    @Override
    public String selectApplicationProtocol(List<String> offered) {
        return offered.contains("http/1.1") ? "http/1.1" : "";
    }

    @Override
    public boolean cleartextHttp2() {
        return false;
    }
}
