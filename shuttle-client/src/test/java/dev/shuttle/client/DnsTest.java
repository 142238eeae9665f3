package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A resolver of the caller's, against Shuttle's server on 127.0.0.1 only: an unreachable address first costs one
 * refused attempt, and the trace and connection say which address was used.
 */
class DnsTest {
    private HttpServer server;
    private final List<String> connects = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().port(0).handler((request, response) -> response.send("host "
                + request.header("Host"))).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private final ClientTrace trace = new ClientTrace() {
        @Override
        public void connectDone(Origin origin, InetSocketAddress address, IOException error) {
            connects.add(address.getAddress().getHostAddress() + (error == null ? " connected" : " failed"));
        }
    };

    private static Dns resolving(String name, String... addresses) {
        return host -> {
            if (!host.equals(name)) {
                throw new UnknownHostException(host + ": not in the test's resolver");
            }
            List<InetAddress> out = new java.util.ArrayList<>();
            for (String address : addresses) {
                out.add(InetAddress.getByName(address));
            }
            return out;
        };
    }

    @Test
    void anUnreachableFirstAddressFallsToTheNext() throws Exception {
        try (HttpClient client = HttpClient.builder().dns(resolving("service.test", "127.0.0.2", "127.0.0.1"))
                .trace(trace).build()) {
            CompletedResponse<String> answer = client.send(Request.get(
                    URI.create("http://service.test:" + server.port() + "/")), BodyHandler.ofString());
            assertThat(answer.body()).isEqualTo("host service.test:" + server.port());
            assertThat(answer.connection().remoteAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        }
        assertThat(connects).containsExactly("127.0.0.2 failed", "127.0.0.1 connected");
    }

    @Test
    void anIpv6AddressThatRefusesHandsOverToIpv4AtOnce() throws Exception {
        try (HttpClient client = HttpClient.builder().dns(resolving("dual.test", "::1", "127.0.0.1")).trace(trace)
                .build()) {
            CompletedResponse<String> answer = client.send(Request.get(
                    URI.create("http://dual.test:" + server.port() + "/")), BodyHandler.ofString());
            assertThat(answer.connection().remoteAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        }
        assertThat(connects).containsExactly("0:0:0:0:0:0:0:1 failed", "127.0.0.1 connected");
    }

    @Test
    void aResolverFailureNamesTheCall() throws Exception {
        try (HttpClient client = HttpClient.builder().dns(resolving("known.test", "127.0.0.1")).build()) {
            URI unknown = URI.create("http://unknown.test:" + server.port() + "/");
            assertThatThrownBy(() -> client.send(Request.get(unknown))).isInstanceOf(UnknownHostException.class)
                    .hasMessageStartingWith("GET " + unknown + ": unknown.test");
            // Literals never reach the resolver.
            assertThat(client.send(Request.get(URI.create("http://127.0.0.1:" + server.port() + "/")),
                    BodyHandler.ofString()).status()).isEqualTo(200);
        }
    }
}
