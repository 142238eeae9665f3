package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.ScriptedServer;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CONNECT tunnels against a scripted proxy that gets things wrong: refuses, closes mid-answer, closes after its 407,
 * asks for credentials for ever. A proxy that agrees relays to Shuttle's TLS server, so the tunnel is real.
 */
class TunnelFaultsTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();
    private HttpServer origin;

    @BeforeEach
    void start() throws IOException {
        origin = HttpServer.builder().port(0).tls(CERTIFICATE.serverContext())
                .handler((request, response) -> response.send("through")).start();
    }

    @AfterEach
    void stop() {
        origin.close();
    }

    private URI target() {
        return URI.create("https://localhost:" + origin.port() + "/");
    }

    private HttpClient client(ScriptedServer proxy, Authenticator proxyAuthenticator) {
        HttpClient.Builder builder = HttpClient.builder().sslContext(CERTIFICATE.clientContext())
                .proxy(Proxies.of("http://127.0.0.1:" + proxy.uri("/").getPort()));
        if (proxyAuthenticator != null) {
            builder.proxyAuthenticator(proxyAuthenticator);
        }
        return builder.build();
    }

    /** Answers 200 and relays bytes both ways between the client and the origin until either closes. */
    private void relay(ScriptedServer.Conn conn) throws IOException {
        conn.write("HTTP/1.1 200 Connection established\r\n\r\n");
        try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), origin.port())) {
            Thread back = Thread.ofVirtual().start(() -> copy(upstream, conn.socket()));
            copy(conn.socket(), upstream);
            back.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void copy(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
            to.shutdownOutput();
        } catch (IOException ignored) {
            // one side went away
        }
    }

    @Test
    void aRefusalSaysWhoRefusedWhatAndWhy() throws Exception {
        try (ScriptedServer proxy = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
            conn.awaitClientClose();
        }); HttpClient client = client(proxy, null)) {
            assertThatThrownBy(() -> client.send(Request.get(target())))
                    .isInstanceOf(ProxyRefusedException.class)
                    .hasMessageStartingWith("GET " + target() + ": proxy http://127.0.0.1:")
                    .hasMessageContaining("refused CONNECT localhost:" + origin.port() + ": 403 Forbidden")
                    .satisfies(e -> assertThat(((ProxyRefusedException) e).status()).isEqualTo(403));
        }
    }

    @Test
    void aProxyThatClosesWithoutAnsweringOrMidAnswerIsNamed() throws Exception {
        try (ScriptedServer proxy = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            if (index == 1) {
                conn.write("HTTP/1.1 200 Conn");
            }
        }); HttpClient client = client(proxy, null)) {
            assertThatThrownBy(() -> client.send(Request.get(target())))
                    .hasMessageContaining("closed the connection without answering to CONNECT");
            assertThatThrownBy(() -> client.send(Request.get(target())))
                    .hasMessageContaining("closed the connection in the middle of its answer");
        }
    }

    @Test
    void a407ThatClosesIsAnsweredOnANewConnectionAndTheTunnelWorks() throws Exception {
        List<String> connects = new CopyOnWriteArrayList<>();
        try (ScriptedServer proxy = new ScriptedServer((conn, index) -> {
            String head = conn.readRequest();
            connects.add(head.lines().filter(l -> l.startsWith("Proxy-Authorization")).findFirst().orElse("none"));
            if (!head.contains("Proxy-Authorization: Basic ")) {
                conn.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\n"
                        + "Connection: close\r\nContent-Length: 4\r\n\r\nwho?");
                return;
            }
            relay(conn);
        }); HttpClient client = client(proxy, Authenticator.basic("ada", "lovelace"))) {
            for (int i = 0; i < 3; i++) {
                assertThat(client.send(Request.get(target()), BodyHandler.ofString()).body()).isEqualTo("through");
            }
            assertThat(proxy.accepted()).as("the 407's connection, then one tunnel for all three").isEqualTo(2);
        }
        assertThat(connects).hasSize(2).first().isEqualTo("none");
    }

    @Test
    void a407LoopEndsInARefusal() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        Authenticator endless = (request, challenge) -> request.toBuilder()
                .header("Proxy-Authorization", "Basic " + asked.incrementAndGet()).build();
        try (ScriptedServer proxy = new ScriptedServer((conn, index) -> {
            while (conn.readRequest() != null) {
                conn.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\n"
                        + "Content-Length: 0\r\n\r\n");
            }
        }); HttpClient client = client(proxy, endless)) {
            assertThatThrownBy(() -> client.send(Request.get(target())))
                    .isInstanceOf(ProxyRefusedException.class).hasMessageContaining(": 407");
            assertThat(asked.get()).isEqualTo(4);
            assertThat(proxy.accepted()).as("answered on the connection the proxy kept").isEqualTo(1);
        }
    }

    @Test
    void aTunnelThatDiesBeforeTlsFailsTheHandshake() throws Exception {
        try (ScriptedServer proxy = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 Connection established\r\n\r\n");
        }); HttpClient client = client(proxy, null)) {
            assertThatThrownBy(() -> client.send(Request.get(target()))).isInstanceOf(IOException.class)
                    .hasMessageContaining("GET " + target());
        }
    }
}
