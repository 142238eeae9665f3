package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS: keep-alive and parking as in plaintext, TLS details reported to the listener, and clients no one here wrote
 * (the JDK's, curl, Python) reusing one connection. Errors stay with the connection that made them.
 */
class TlsServerTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private final RecordingListener states = new RecordingListener();
    private final List<TlsInfo> handshakes = new CopyOnWriteArrayList<>();
    private final LongAdder newConnections = new LongAdder();
    private HttpServer server;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        server = start(ServerTimeouts.defaults());
    }

    private HttpServer start(ServerTimeouts timeouts) throws IOException {
        return HttpServer.builder()
                .tls(CERTIFICATE.serverContext())
                .http2(Http2Options.disabled()) // HTTP/1.1 over TLS here; Http2ServerTest covers h2
                .timeouts(timeouts)
                .handler((request, response) -> response.send("secure " + request.path()))
                .connectionListener(new ConnectionListener() {
                    @Override
                    public void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
                        if (to == ConnectionState.NEW) {
                            newConnections.increment();
                        }
                        states.onStateChange(connection, from, to);
                    }

                    @Override
                    public void onTlsHandshake(ConnectionInfo connection, TlsInfo tls) {
                        assertThat(connection.tls()).isSameAs(tls);
                        handshakes.add(tls);
                    }
                })
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url(String path) {
        return "https://localhost:" + server.port() + path;
    }

    private SSLSocket tlsSocket(SSLContext context) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("localhost", server.port());
        var parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        return socket;
    }

    @Test
    void keepAliveOverTlsParksAndWakesOnOneConnection() throws Exception {
        try (RawConnection connection = new RawConnection(tlsSocket(CERTIFICATE.clientContext()))) {
            for (int i = 1; i <= 3; i++) {
                assertThat(connection.get("/" + i).bodyText()).isEqualTo("secure /" + i);
                states.awaitCount(ConnectionState.PARKED, i);
            }
        }
        assertThat(newConnections.sum()).isEqualTo(1);
        assertThat(handshakes).singleElement().satisfies(tls -> {
            assertThat(tls.protocol()).startsWith("TLSv1.");
            assertThat(tls.cipherSuite()).startsWith("TLS_");
            assertThat(tls.resumed()).isFalse();
            assertThat(tls.handshakeTime()).isPositive();
        });
    }

    @Test
    void aSecondConnectionOfTheSameClientResumesItsSession() throws Exception {
        SSLContext client = CERTIFICATE.clientContext();
        for (int i = 0; i < 2; i++) {
            try (RawConnection connection = new RawConnection(tlsSocket(client))) {
                assertThat(connection.get("/r").bodyText()).isEqualTo("secure /r");
            }
        }
        assertThat(handshakes).extracting(TlsInfo::resumed).containsExactly(false, true);
    }

    @Test
    void theJdkClientReusesOneConnectionWithAlpnHttp11() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().sslContext(CERTIFICATE.clientContext())
                .version(HttpClient.Version.HTTP_2).build()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/jdk"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.body()).isEqualTo("secure /jdk");
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1); // h2 offered, http/1.1 chosen
            }
        }
        assertThat(newConnections.sum()).isEqualTo(1);
        assertThat(handshakes).singleElement().extracting(TlsInfo::applicationProtocol).isEqualTo("http/1.1");
    }

    @Test
    void curlReusesOneConnectionWithTheAuthorityAsCacert() throws Exception {
        Path ca = dir.resolve("ca.pem");
        CERTIFICATE.writeAuthorityPem(ca);
        ProcessResult result = run(List.of("curl", "-s", "--cacert", ca.toString(), "-o", "/dev/null", "-o",
                "/dev/null", "-w", "%{num_connects} %{http_code} %{http_version}\\n", url("/a"), url("/b")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().lines()).containsExactly("1 200 1.1", "0 200 1.1");
        assertThat(newConnections.sum()).isEqualTo(1);
    }

    @Test
    void pythonHttpClientReusesOneConnection() throws Exception {
        Path ca = dir.resolve("ca.pem");
        CERTIFICATE.writeAuthorityPem(ca);
        String script = String.join("\n",
                "import http.client, ssl, sys",
                "context = ssl.create_default_context(cafile=sys.argv[1])",
                "connection = http.client.HTTPSConnection('localhost', int(sys.argv[2]), context=context)",
                "for path in ['/p1', '/p2', '/p3']:",
                "    connection.request('GET', path)",
                "    print(connection.getresponse().read().decode())",
                "connection.close()");
        ProcessResult result = run(List.of("python3", "-c", script, ca.toString(), Integer.toString(server.port())));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().lines()).containsExactly("secure /p1", "secure /p2", "secure /p3");
        assertThat(newConnections.sum()).isEqualTo(1);
    }

    @Test
    void plaintextOnTheTlsPortGetsA400ThatSaysSo() throws Exception {
        try (RawConnection plain = new RawConnection(server)) {
            plain.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.RawResponse response = plain.readResponse();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.bodyText()).contains("HTTP request to an HTTPS server");
        }
    }

    @Test
    void aBadHandshakeIsLoggedOnceBrieflyAndHurtsNoOtherConnection() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger("dev.shuttle.server");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try (RawConnection good = new RawConnection(tlsSocket(CERTIFICATE.clientContext()))) {
            assertThat(good.get("/before").status()).isEqualTo(200);
            try (Socket bad = new Socket("localhost", server.port())) {
                // A handshake record header followed by garbage.
                bad.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 9, 9, 9, 9, 9});
                InputStream in = bad.getInputStream();
                bad.setSoTimeout(10_000);
                while (in.read() >= 0) {
                    // the server answers with an alert and closes
                }
            }
            assertThat(good.get("/after").status()).isEqualTo(200);
        } finally {
            logger.removeHandler(capture);
        }
        assertThat(records).singleElement().satisfies(record -> {
            assertThat(record.getThrown()).isNull();
            assertThat(new java.text.MessageFormat(record.getMessage()).format(record.getParameters()))
                    .startsWith("TLS handshake from /127.0.0.1:");
        });
    }

    @Test
    void aClientThatStallsInTheHandshakeIsClosedAtTheHandshakeTimeout() throws Exception {
        server.close();
        server = start(ServerTimeouts.builder().tlsHandshake(Duration.ofMillis(300)).build());
        try (Socket stalled = new Socket("localhost", server.port())) {
            stalled.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // a record header, never finished
            stalled.setSoTimeout(10_000);
            long start = System.nanoTime();
            assertThat(stalled.getInputStream().read()).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(9));
        }
        states.awaitCount(ConnectionState.CLOSED, 1);
    }

    record ProcessResult(int exitCode, String stdout, String stderr) {
    }

    static ProcessResult run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new ProcessResult(process.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err, StandardCharsets.UTF_8));
    }
}
