package dev.shuttle.lab.servers;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
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
 * Jetty 12 (core API, no servlets), default thread pool. The connector has exactly one connection factory, so an
 * h2c connector speaks HTTP/2 from the first byte (prior knowledge) and an http1 connector only HTTP/1.1. Over https
 * an {@code SslConnectionFactory} (JDK SSLEngine, the lab's key store) sits in front of the HTTP/1.1 factory and no
 * ALPN factory is added, so HTTP/1.1 is all it speaks.
 */
final class JettyTarget implements ServerTarget {
    @Override
    public void checkSupported(Protocol protocol) {
        ServerTarget.checkSupportedWithHttps(protocol);
    }

    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ConnectionFactory factory;
        if (protocol == Protocol.H2C) {
            HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(config);
            h2c.setMaxConcurrentStreams(settings.maxConcurrentStreams());
            h2c.setInitialStreamRecvWindow(settings.initialWindowSize());
            h2c.setStreamIdleTimeout(settings.idleTimeoutMillis());
            factory = h2c;
        } else {
            factory = new HttpConnectionFactory(config);
        }
        ServerConnector connector;
        if (protocol == Protocol.HTTPS) {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(settings.requireKeyStore().toString());
            ssl.setKeyStoreType("PKCS12");
            ssl.setKeyStorePassword(LabTls.password());
            config.addCustomizer(new SecureRequestCustomizer(false));
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), factory);
        } else {
            connector = new ServerConnector(server, factory);
        }
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(settings.idleTimeoutMillis());
        connector.setAcceptQueueSize(settings.backlog());
        server.addConnector(connector);
        byte[] body = ServerSettings.BODY;
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                response.write(true, ByteBuffer.wrap(body), callback);
                return true;
            }
        });
        server.start();
        return new RunningServer() {
            @Override
            public int port() {
                return connector.getLocalPort();
            }

            @Override
            public void close() throws Exception {
                server.stop();
            }
        };
    }
}
