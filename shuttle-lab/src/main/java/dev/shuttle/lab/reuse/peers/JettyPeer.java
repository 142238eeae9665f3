package dev.shuttle.lab.reuse.peers;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12 (core API) serving HTTP/2 only: h2c with prior knowledge, or ALPN h2 over TLS (jetty-alpn-java-server),
 * with Jetty's default thread pool, limits and rate controls. A body with no declared length goes out in a first
 * write that is not the last, so Jetty cannot compute a Content-Length for it.
 */
public final class JettyPeer implements PeerServer {
    private static final char[] KEY_STORE_PASSWORD = "lab-reuse".toCharArray();

    private final Server server;
    private final ServerConnector connector;

    private JettyPeer(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    public static JettyPeer start(SelfSignedCertificate certificate) throws IOException {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ServerConnector connector;
        if (certificate == null) {
            connector = new ServerConnector(server, new HTTP2CServerConnectionFactory(config));
        } else {
            config.addCustomizer(new SecureRequestCustomizer(false)); // the certificate names 127.0.0.1, not SNI's
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(certificate.keyStore(KEY_STORE_PASSWORD));
            ssl.setKeyStorePassword(new String(KEY_STORE_PASSWORD));
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
            alpn.setDefaultProtocol("h2");
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                    new HTTP2ServerConnectionFactory(config));
        }
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                HttpURI uri = request.getHttpURI();
                PeerBodies.Body body = PeerBodies.forRequest(uri.getPath(), uri.getQuery());
                if (body == null) {
                    Response.writeError(request, response, callback, 404);
                    return true;
                }
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, body.contentType());
                if (body.declaresLength()) {
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length());
                    response.write(true, body.bytes(), callback);
                } else {
                    response.write(false, body.bytes(),
                            Callback.from(() -> response.write(true, ByteBuffer.allocate(0), callback),
                                    callback::failed));
                }
                return true;
            }
        });
        try {
            server.start();
        } catch (Exception e) {
            throw new IOException("Jetty did not start: " + e.getMessage(), e);
        }
        return new JettyPeer(server, connector);
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception ignored) {
            // stopping releases threads and sockets; nothing more to do with a server that failed to stop
        }
    }
}
