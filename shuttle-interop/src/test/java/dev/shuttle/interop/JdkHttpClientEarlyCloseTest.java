package dev.shuttle.interop;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's {@code java.net.http.HttpClient} over h2 (TLS with ALPN), taking each body as an {@link InputStream}
 * and closing it unread, which its documentation gives as the way to release a body: the client resets the stream.
 * Over TLS only: the JDK client has no h2c prior knowledge (on {@code http} it sends HTTP/1.1 with
 * {@code Upgrade: h2c}, and concurrent first requests each open a connection before one upgrades).
 */
@Timeout(60)
class JdkHttpClientEarlyCloseTest {
    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        try (InteropServer server = InteropServer.start(transport)) {
            ClientRun run;
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .sslContext(InteropServer.clientContext()).build()) {
                run = JvmDriver.run(workload, server.url(workload.bodyBytes()), uri -> {
                    HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofInputStream());
                    response.body().close();
                    return response.version() == HttpClient.Version.HTTP_2 ? response.statusCode() : -1;
                });
            }
            server.assertEarlyCloseContract("JDK HttpClient", workload, run);
        }
    }
}
