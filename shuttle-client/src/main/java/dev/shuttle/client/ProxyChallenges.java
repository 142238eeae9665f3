package dev.shuttle.client;

import dev.shuttle.client.exchange.BodySource;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.exchange.ResponseStart;
import dev.shuttle.client.proxy.ProxyServer;
import dev.shuttle.client.proxy.TunnelAuthenticator;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.net.URI;

/**
 * The client's proxy {@link Authenticator} answering a tunnel's 407: it sees a {@code CONNECT} request to the origin
 * and the proxy's answer (its fields; the tunnel read its body), as it sees a 407 of a plain http request.
 */
final class ProxyChallenges implements TunnelAuthenticator {
    private final Authenticator authenticator;

    private ProxyChallenges(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    static TunnelAuthenticator of(Authenticator authenticator) {
        return authenticator == null ? NONE : new ProxyChallenges(authenticator);
    }

    @Override
    public String authorize(Origin target, ProxyServer proxy, int status, String reason, Headers headers,
                            String sent) throws IOException {
        Request.Builder connect = Request.newBuilder(URI.create(target.scheme() + "://" + target.authority() + "/"))
                .method("CONNECT", BodyPublisher.none());
        if (sent != null) {
            connect.header("Proxy-Authorization", sent);
        }
        Request request = connect.build();
        try (Response challenge = new Response(request, new ResponseStart(status, reason, HttpVersion.HTTP_1_1,
                headers), new ResponseBody(NoBody.INSTANCE), (ConnectionInfo) null, null)) {
            Request answer = authenticator.authenticate(request, challenge);
            return answer == null ? null : answer.headers().first("Proxy-Authorization");
        }
    }

    /** The body of a challenge the tunnel has already read. */
    private enum NoBody implements BodySource {
        INSTANCE;

        @Override
        public int read(byte[] b, int off, int len) {
            return -1;
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public void skipToEnd() {
        }

        @Override
        public void close() {
        }

        @Override
        public boolean isComplete() {
            return true;
        }

        @Override
        public Headers trailers() {
            return Headers.EMPTY;
        }

        @Override
        public long remainingLength() {
            return 0;
        }

        @Override
        public long declaredLength() {
            return 0;
        }

        @Override
        public void leaked(String method, URI uri) {
        }
    }
}
