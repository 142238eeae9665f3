package dev.shuttle.lab.clients;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.alpn.client.ALPNClientConnection;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpProxy;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12 {@code HttpClient} with its defaults (64 connections per destination). The body is read through
 * {@link InputStreamResponseListener}, whose documentation says to close the stream to abandon the rest of the
 * content; Jetty then aborts the response and closes the connection, or over HTTP/2 resets the stream. HTTP/2 when
 * asked: Jetty's HTTP/2 transport, prior knowledge on http, ALPN h2 on https (jetty-alpn-java-client).
 */
final class JettyLabClient implements LabClient {
    private final HttpClient client;
    private final boolean http2;
    private final long requestTimeoutMillis;
    private final AtomicLong connectionsOpened = new AtomicLong();

    JettyLabClient(ClientOptions options) {
        ClientConnector connector = new ClientConnector();
        if (options.trust() != null) {
            SslContextFactory.Client tls = new SslContextFactory.Client();
            tls.setSslContext(options.trust().newContext());
            if (!options.trust().verifiesHostnames()) {
                tls.setEndpointIdentificationAlgorithm(null);
            }
            connector.setSslContextFactory(tls);
        }
        // HTTP/1.1 only, over TLS too (this transport offers no ALPN); what new HttpClient() would pick, spelled out.
        this.http2 = options.http2();
        this.client = new HttpClient(http2 ? new HttpClientTransportOverHTTP2(new HTTP2Client(connector))
                : new HttpClientTransportOverHTTP(connector));
        client.setConnectTimeout(options.connectTimeout().toMillis());
        if (options.proxy() != null) {
            client.getProxyConfiguration().addProxy(
                    new HttpProxy(options.proxy().getHostString(), options.proxy().getPort()));
        }
        // Jetty hands every Connection.Listener bean of the client to each new connection.
        client.addBean(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                // over TLS, the TLS layer is a connection of its own, and so is ALPN's until it hands over
                if (!(connection instanceof SslConnection) && !(connection instanceof ALPNClientConnection)) {
                    connectionsOpened.incrementAndGet();
                }
            }
        });
        this.requestTimeoutMillis = options.requestTimeout().toMillis();
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty HttpClient did not start", e);
        }
    }

    @Override
    public ClientKind kind() {
        return ClientKind.JETTY;
    }

    @Override
    public CallResult call(URI uri, BodyUse use) throws IOException {
        InputStreamResponseListener listener = new InputStreamResponseListener();
        org.eclipse.jetty.client.Request request = client.newRequest(uri)
                .timeout(requestTimeoutMillis, TimeUnit.MILLISECONDS);
        request.send(listener);
        Response response;
        try {
            response = listener.get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + uri);
        } catch (TimeoutException e) {
            throw new IOException("no response head from " + uri + " within " + requestTimeoutMillis + " ms", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        }
        try (InputStream body = listener.getInputStream()) {
            if (http2 && response.getVersion() != HttpVersion.HTTP_2) {
                throw new IOException("Jetty spoke " + response.getVersion() + ", not HTTP/2");
            }
            long read = BodyConsumer.consume(body, use);
            if (use == BodyUse.CANCEL_MID_BODY) {
                request.abort(new CancellationException("cancelled mid-body")); // Jetty's way
            }
            return new CallResult(response.getStatus(), read);
        }
    }

    @Override
    public long connectionsOpened() {
        return connectionsOpened.get();
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception ignored) {
            // stopping releases threads and sockets; a failure here leaves nothing the lab could still use
        }
    }
}
