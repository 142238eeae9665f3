package dev.shuttle.interop;

import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Jetty 12's {@code HttpClient} on its HTTP/2 transport (prior knowledge over h2c, ALPN h2 over TLS), reading each
 * body through {@link InputStreamResponseListener} and closing the stream unread, which its documentation gives as
 * the way to abandon the content: over HTTP/2 Jetty resets the stream and keeps the connection.
 *
 * <p>One connection per destination at most: Jetty's pool opens another one whenever its own count of streams in use
 * reaches the server's limit, and it frees an aborted stream only once its threads have completed the abort, so under
 * 50 workers on two cores it sometimes opened a second to tenth connection over TLS while the server had refused
 * nothing and sent no GOAWAY. Pinned to one, the count is about the server: a connection the server ends still
 * costs Jetty a new one, and a refused or failed request still counts.
 */
@Timeout(60)
class JettyClientEarlyCloseTest {
    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.H2C, Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        try (InteropServer server = InteropServer.start(transport)) {
            ClientConnector connector = new ClientConnector();
            if (transport == Transport.TLS) {
                SslContextFactory.Client tls = new SslContextFactory.Client();
                tls.setSslContext(InteropServer.clientContext());
                connector.setSslContextFactory(tls);
            }
            HttpClient client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client(connector)));
            client.setMaxConnectionsPerDestination(1);
            client.start();
            ClientRun run;
            try {
                run = JvmDriver.run(workload, server.url(workload.bodyBytes()), uri -> {
                    InputStreamResponseListener listener = new InputStreamResponseListener();
                    client.newRequest(uri).timeout(20, TimeUnit.SECONDS).send(listener);
                    Response response = listener.get(20, TimeUnit.SECONDS);
                    try (InputStream body = listener.getInputStream()) {
                        return response.getVersion() == HttpVersion.HTTP_2 ? response.getStatus() : -1;
                    }
                });
            } finally {
                client.stop();
            }
            server.assertEarlyCloseContract("Jetty HttpClient", workload, run);
        }
    }
}
