package dev.shuttle.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Shuttle's HTTP/2 server with its default options, as the clients under test meet it: h2c on a plaintext port or h2
 * over TLS, answering {@code GET /bytes/N} with N bytes and a Content-Length. It is a {@link MockServer}, which
 * counts what the tests assert: connections accepted, and the GOAWAY frames the server sent, each marked as before
 * or after the client closed (the server's {@code ConnectionListener.onGoAway}).
 */
final class InteropServer implements AutoCloseable {
    /** How long the server may take to see every connection of a closed client close. */
    private static final Duration SETTLE = Duration.ofSeconds(10);

    private final MockServer server;
    private final Transport transport;

    private InteropServer(MockServer server, Transport transport) {
        this.server = server;
        this.transport = transport;
    }

    static InteropServer start(Transport transport) {
        MockServer.Builder builder = MockServer.builder().http2().dispatcher(request -> {
            if (!request.path().startsWith("/bytes/")) {
                return MockResponse.text(404, "no such path: " + request.path() + "\n");
            }
            return MockResponse.ofSize(Long.parseLong(request.path().substring("/bytes/".length())));
        });
        if (transport == Transport.TLS) {
            builder.tls(SharedCertificate.INSTANCE);
        }
        try {
            return new InteropServer(builder.start(), transport);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One certificate for every TLS server of the run, made on first use: generating a key pair is the slow part. */
    private static final class SharedCertificate {
        static final SelfSignedCertificate INSTANCE = SelfSignedCertificate.generate();
    }

    Transport transport() {
        return transport;
    }

    int port() {
        return server.port();
    }

    /** The URL of a body of {@code bytes}. */
    URI url(int bytes) {
        return server.url("/bytes/" + bytes);
    }

    /** A TLS context trusting the server's generated authority alone. */
    static SSLContext clientContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustManager()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A trust manager for the server's generated authority alone, for clients that take one (OkHttp). */
    static X509TrustManager trustManager() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("authority", SharedCertificate.INSTANCE.authority());
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return (X509TrustManager) factory.getTrustManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The contract every client must meet, checked once the client closed: every request answered, one connection
     * for the whole run, and no GOAWAY from the server before the client closed.
     */
    void assertEarlyCloseContract(String client, Workload workload, ClientRun run) throws InterruptedException {
        boolean settled = server.awaitConnectionsClosed(SETTLE);
        String context = client + " over " + transport + ", " + workload + ": " + run + "; server: "
                + server.describe() + "; GOAWAYs: " + server.goAways();
        assertThat(run.failures()).as("failed requests; " + context).isZero();
        assertThat(run.requests()).as("requests made; " + context).isEqualTo(workload.requests());
        assertThat(server.goAwaysBeforeClientClosed()).as("GOAWAYs before the client closed; " + context).isZero();
        assertThat(server.connections()).as("connections; " + context).isEqualTo(1);
        assertThat(settled).as("connections closed within " + SETTLE + " of the client's close; " + context).isTrue();
    }

    @Override
    public void close() {
        server.close();
    }
}
