package dev.shuttle.client.testing;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12 as a peer no one here wrote: h2c (prior knowledge), h2 over TLS with ALPN, or TLS with HTTP/1.1 only.
 * Paths: {@code /bytes/N} answers N bytes; {@code /echo} answers the request body; anything else a short text.
 * Counts, per Jetty connection, the streams in its handler at once.
 */
public final class JettyH2Server implements AutoCloseable {
    /** How the connector speaks. */
    public enum Mode { H2C, H2_TLS, HTTP1_TLS }

    private static final char[] PASSWORD = "secret".toCharArray();
    /**
     * Jetty answers more than 128 "suspicious" events a second (resets among them: CVE-2023-44487) with GOAWAY
     * ENHANCE_YOUR_CALM; a test that resets two dozen streams in a tight loop is not an attack.
     */
    private static final org.eclipse.jetty.http2.RateControl.Factory RELAXED =
            new org.eclipse.jetty.http2.WindowRateControl.Factory(100_000);

    private final Server server;
    private final ServerConnector connector;
    private final Mode mode;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger maxInFlightPerConnection = new AtomicInteger();
    private volatile Runnable beforeAnswer = () -> {
    };

    public JettyH2Server(Mode mode, SelfSignedCertificate certificate, int maxConcurrentStreams, long idleTimeoutMillis)
            throws Exception {
        this.mode = mode;
        server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ConnectionFactory[] factories;
        if (mode == Mode.H2C) {
            HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(config);
            h2c.setMaxConcurrentStreams(maxConcurrentStreams);
            h2c.setRateControlFactory(RELAXED);
            factories = new ConnectionFactory[] {h2c};
        } else {
            config.addCustomizer(new SecureRequestCustomizer(false));
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(certificate.keyStore(PASSWORD));
            ssl.setKeyStorePassword(new String(PASSWORD));
            HttpConnectionFactory http1 = new HttpConnectionFactory(config);
            if (mode == Mode.H2_TLS) {
                HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(config);
                h2.setMaxConcurrentStreams(maxConcurrentStreams);
                h2.setRateControlFactory(RELAXED);
                ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
                alpn.setDefaultProtocol("http/1.1");
                factories = new ConnectionFactory[] {new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2,
                        http1};
            } else {
                ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("http/1.1");
                alpn.setDefaultProtocol("http/1.1");
                factories = new ConnectionFactory[] {new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, http1};
            }
        }
        connector = new ServerConnector(server, factories);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(idleTimeoutMillis);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String connection = request.getConnectionMetaData().getId();
                AtomicInteger count = inFlight.computeIfAbsent(connection, id -> new AtomicInteger());
                maxInFlightPerConnection.accumulateAndGet(count.incrementAndGet(), Math::max);
                try {
                    beforeAnswer.run();
                    answer(request, response, callback);
                } finally {
                    count.decrementAndGet();
                }
                return true;
            }
        });
        server.start();
    }

    private static void answer(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path.startsWith("/bytes/")) {
            int size = Integer.parseInt(path.substring("/bytes/".length()));
            byte[] body = new byte[size];
            for (int i = 0; i < size; i++) {
                body[i] = (byte) i;
            }
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
            response.write(true, ByteBuffer.wrap(body), callback);
        } else if (path.equals("/echo")) {
            ByteBuffer body;
            try {
                body = Content.Source.asByteBuffer(request); // a blocking handler: reading inline is allowed
            } catch (java.io.IOException e) {
                callback.failed(e);
                return;
            }
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.remaining());
            response.write(true, body, callback);
        } else {
            byte[] body = ("hello " + path + " over " + request.getConnectionMetaData().getProtocol())
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.write(true, ByteBuffer.wrap(body), callback);
        }
    }

    /** Runs before each answer, on the handling thread (to hold streams open in a test). */
    public void beforeAnswer(Runnable action) {
        this.beforeAnswer = action;
    }

    public String url(String path) {
        String scheme = mode == Mode.H2C ? "http" : "https";
        String host = mode == Mode.H2C ? "127.0.0.1" : "localhost";
        return scheme + "://" + host + ":" + connector.getLocalPort() + path;
    }

    /** The most streams one Jetty connection had in its handler at once. */
    public int maxInFlightPerConnection() {
        return maxInFlightPerConnection.get();
    }

    /** Jetty connections that ran a handler. */
    public int connectionsSeen() {
        return inFlight.size();
    }

    /** Connections open at Jetty right now. */
    public int openConnections() {
        return connector.getConnectedEndPoints().size();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not stop", e);
        }
    }
}
