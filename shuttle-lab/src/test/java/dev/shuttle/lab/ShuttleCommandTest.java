package dev.shuttle.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line end to end, with System.out and System.err captured. */
class ShuttleCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    private int run(String... args) {
        CommandLine line = ShuttleCommand.commandLine();
        line.setErr(new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        return line.execute(args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void labReuseWritesTheTableJsonAndHtml(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("reuse.json");
        Path html = dir.resolve("reuse.html");
        int code = run("lab", "reuse", "--clients", "shuttle,shuttle-none,okhttp", "--cases", "cl-1k,close",
                "--requests", "5", "--rounds", "2", "--warmup", "2", "--no-progress", "--json", json.toString(),
                "--html", html.toString());
        assertThat(code).as(stderr()).isZero();
        assertThat(stdout()).contains("New connections per cell (median of 2 rounds")
                .contains("Content-Length 1 KiB").contains("Connection: close, 1 KiB").contains("published †");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("cells")).hasSize(6);
        for (JsonNode cell : root.get("cells")) {
            if (cell.get("case").asText().equals("close")) {
                assertThat(cell.get("newConnections").get("median").asLong()).isEqualTo(5);
            }
        }
        assertThat(Files.readString(html)).contains("<svg").contains("shuttle-none");
    }

    @Test
    void labReuseOverTlsCountsAHandshakePerNewConnectionThroughTheRelay(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("reuse-tls.json");
        Path html = dir.resolve("reuse-tls.html");
        int code = run("lab", "reuse", "--tls", "--dial-delay", "5ms", "--clients", "shuttle-none,okhttp,shuttle-h2",
                "--cases", "cl-2k,close", "--requests", "6", "--rounds", "1", "--warmup", "2", "--no-progress",
                "--json", json.toString(), "--html", html.toString());
        assertThat(code).as(stderr()).isZero();
        assertThat(stdout()).contains("(HTTP/1.1 over TLS; shuttle-h2: HTTP/2 over TLS)")
                .contains("TLS handshakes per cell, full and resumed")
                .contains("dial delay 5 ms (through the relay)");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("parameters").get("tls").asBoolean()).isTrue();
        assertThat(root.get("cells")).hasSize(6);
        for (JsonNode cell : root.get("cells")) {
            String name = cell.get("client").asText() + " × " + cell.get("case").asText();
            boolean h2 = cell.get("client").asText().equals("shuttle-h2");
            assertThat(cell.get("errors").asInt()).as(name).isZero();
            long connections = cell.get("newConnections").get("median").asLong();
            long handshakes = cell.get("tlsHandshakes").get("median").asLong();
            long resumed = cell.get("tlsResumed").asLong();
            assertThat(handshakes).as(name + ": one handshake per new connection").isEqualTo(connections);
            assertThat(resumed).as(name + ": a client's first handshake is always full")
                    .isLessThanOrEqualTo(handshakes - 1);
            // HTTP/2 has no Connection: close: shuttle-h2 keeps one connection, one handshake, in every case.
            boolean churns = !h2 && (cell.get("case").asText().equals("close") || cell.get("client").asText()
                    .equals("shuttle-none"));
            assertThat(connections).as(name).isEqualTo(churns ? 6 : 1);
            if (churns) {
                assertThat(resumed).as(name + ": later connections resume the client's own session").isPositive();
            }
        }
        assertThat(Files.readString(html)).contains("TLS handshakes per cell");
    }

    @Test
    void serveTlsPrintsTheAuthorityThatGetTrustsAndDeletesItWhenStopped() throws Exception {
        ServeCommand serve = new CommandLine(new ServeCommand()).parseArgs("--tls", "--port", "0").commandSpec()
                .commandLine().getCommand();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Path ca;
        String url;
        try (ServeCommand.Serving serving = serve.start(new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            String text = printed.toString(StandardCharsets.UTF_8);
            assertThat(text).contains("listening on https://127.0.0.1:" + serving.fixture().port() + "/")
                    .contains("curl --cacert ");
            Matcher path = Pattern.compile("CA certificate: (\\S+)").matcher(text);
            assertThat(path.find()).as(text).isTrue();
            ca = Path.of(path.group(1));
            assertThat(Files.readString(ca)).startsWith("-----BEGIN CERTIFICATE-----");
            url = "https://127.0.0.1:" + serving.fixture().port() + "/json";

            int code = run("get", "-v", "--repeat", "2", "--cacert", ca.toString(), url);
            assertThat(code).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n{\"a\":1}\n");
            assertThat(stderr()).contains("TLS handshake with 127.0.0.1:").contains("trusting the certificates in " + ca)
                    .contains("TLS connection using TLSv1.3 / TLS_").contains("full handshake in")
                    .contains("ALPN: server accepted h2").contains("< HTTP/2 200")
                    .contains("HTTP/2 stream 3 on connection #1 (reused)").contains("subject: CN=localhost")
                    .contains("subjectAltName: DNS:localhost, IP:127.0.0.1").contains("issuer: CN=Shuttle local authority")
                    .contains("REUSED connection").contains("1 TLS handshakes, 0 of them resumed");
            assertThat(serving.fixture().tlsHandshakes()).isEqualTo(1);
        }
        assertThat(ca).as("a temporary authority file goes with the server").doesNotExist();
    }

    @Test
    void serveWritesTheAuthorityWhereAskedAndKeepsIt(@TempDir Path dir) throws Exception {
        Path ca = dir.resolve("ca.pem");
        ServeCommand serve = new CommandLine(new ServeCommand())
                .parseArgs("--tls", "--port", "0", "--cacert-out", ca.toString()).commandSpec().commandLine()
                .getCommand();
        try (ServeCommand.Serving serving = serve.start(new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8))) {
            assertThat(run("get", "--cacert", ca.toString(), "https://localhost:" + serving.fixture().port()
                    + "/json")).as(stderr()).isZero();
        }
        assertThat(ca).exists();
        assertThat(run("serve", "--cacert-out", ca.toString(), "--port", "0")).isEqualTo(2);
        assertThat(stderr()).contains("--cacert-out needs --tls");
    }

    @Test
    void getInsecureAcceptsACertificateForAnotherNameThatVerificationRefuses(@TempDir Path dir) throws Exception {
        SelfSignedCertificate elsewhere = SelfSignedCertificate.generate(List.of("example.test"));
        Path ca = dir.resolve("elsewhere.pem");
        elsewhere.writeAuthorityPem(ca);
        try (FixtureServer fixture = FixtureServer.startTls(0, elsewhere)) {
            String url = fixture.uri("/json").toString();
            assertThat(run("get", "-v", "--insecure", url)).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n");
            assertThat(stderr()).contains("trusting any certificate (--insecure: not verified)")
                    .contains("subjectAltName: DNS:example.test");

            assertThat(run("get", url)).as("the JDK's trust store knows no such authority").isEqualTo(1);
            assertThat(stderr()).contains("not trusted").contains("--cacert FILE trusts its authority");

            assertThat(run("get", "--cacert", ca.toString(), url)).as("trusted, but not for 127.0.0.1").isEqualTo(1);
            assertThat(stderr()).contains("TLS failed with 127.0.0.1:" + fixture.port());
        }
    }

    @Test
    void getAndProbeRefuseContradictoryOrMissingTrust(@TempDir Path dir) {
        Path missing = dir.resolve("missing.pem");
        assertThat(run("get", "--cacert", missing.toString(), "--insecure", "https://127.0.0.1:1/")).isEqualTo(2);
        assertThat(stderr()).contains("--cacert and --insecure contradict each other");
        assertThat(run("get", "--cacert", missing.toString(), "https://127.0.0.1:1/")).isEqualTo(2);
        assertThat(stderr()).contains("cannot read " + missing);
        assertThat(run("probe", "--cacert", missing.toString(), "https://127.0.0.1:1/")).isEqualTo(2);
    }

    @Test
    void unknownClientOrCaseIsAClearError() {
        assertThat(run("lab", "reuse", "--clients", "curl", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("unknown client 'curl'").contains("shuttle-bounded");
        assertThat(run("lab", "reuse", "--cases", "huge", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("unknown case 'huge'");
        assertThat(run("lab", "reuse", "--dial-delay", "soon")).isNotZero();
        assertThat(stderr()).contains("not a duration");
    }

    @Test
    void labIdleSaysInOneLineWhichServersCannotServeTheProtocol() {
        assertThat(run("lab", "idle", "--servers", "shuttle,shuttle-noparking", "--protocol", "h2", "--no-progress"))
                .isEqualTo(2);
        assertThat(stderr()).contains("shuttle: h2 (TLS with ALPN) is not wired up in the lab yet")
                .contains("shuttle-noparking: h2 (TLS with ALPN) is not wired up in the lab yet");
        assertThat(run("lab", "busy", "--servers", "shuttle", "--protocol", "h2", "--no-progress")).isEqualTo(2);
    }

    @Test
    void labIdleAndBusyRejectUnknownNames() {
        assertThat(run("lab", "idle", "--servers", "nginx", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("unknown server 'nginx'").contains("undertow");
        assertThat(run("lab", "idle", "--protocol", "h3", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("unknown protocol 'h3'");
        assertThat(run("lab", "busy", "--scenario", "lukewarm", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("unknown scenario 'lukewarm'");
        assertThat(run("lab", "idle", "--connections", "50000", "--no-progress")).isNotZero();
        assertThat(stderr()).contains("connections must be in 1..19000");
    }

    @Test
    void probeRejectsBadUrls() {
        assertThat(run("probe", "gopher://x/")).isEqualTo(2);
        assertThat(stderr()).contains("only http:// and https://");
    }

    @Test
    void getVerbosePrintsTheExchangeAndShuttlesEvents() throws Exception {
        try (FixtureServer fixture = FixtureServer.start(0)) {
            int code = run("get", "-v", "--repeat", "2", fixture.uri("/json").toString());
            assertThat(code).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n{\"a\":1}\n");
            assertThat(stderr()).contains("> GET /json HTTP/1.1").contains("< HTTP/1.1 200")
                    .contains("< Content-Length: 8").contains("NEW connection").contains("REUSED connection")
                    .contains("Connected to").contains("first response byte").contains("drain COMPLETE");
        }
    }

    @Test
    void getVerboseSaysAConnectionClosedByTheServerWasClosedNotPooled() throws Exception {
        try (FixtureServer fixture = FixtureServer.start(0)) {
            int code = run("get", "-v", "--repeat", "2", fixture.uri("/close?n=16").toString());
            assertThat(code).as(stderr()).isZero();
            assertThat(stderr()).contains("drain COMPLETE_CLOSED").contains("could not be reused")
                    .contains("the previous one was closed: COMPLETE_CLOSED")
                    .doesNotContain("connection back in the pool").doesNotContain("REUSED connection");
        }
    }

    @Test
    void getPrintsTheStatusLineWithTheProtocolAndWithPriorKnowledgeSpeaksH2c() throws Exception {
        try (FixtureServer fixture = FixtureServer.start(0)) {
            String url = fixture.uri("/json").toString();
            assertThat(run("get", url)).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n");
            assertThat(stderr()).isEqualTo("HTTP/1.1 200 OK\n");
            err.reset();
            out.reset();

            assertThat(run("get", "--http2-prior-knowledge", url)).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n");
            assertThat(stderr()).isEqualTo("HTTP/2 200\n");
            err.reset();
            out.reset();

            long before = fixture.connectionsAccepted();
            // 4 MiB: more than a stream window, so the close always finds the body unfinished
            assertThat(run("get", "-v", "--http2-prior-knowledge", "--unread", "--repeat", "2",
                    fixture.uri("/bytes?n=4194304").toString())).as(stderr()).isZero();
            assertThat(stdout()).isEmpty();
            assertThat(stderr()).contains("> GET /bytes?n=4194304 HTTP/2").contains("> :authority: 127.0.0.1:")
                    .contains("< HTTP/2 200").contains("HTTP/2 stream 1 on connection #1 (new)")
                    .contains("HTTP/2 stream 3 on connection #1 (reused)").contains("drain RESET_STREAM")
                    .contains("2 requests, 1 on reused connections, 1 connections opened");
            assertThat(fixture.connectionsAccepted() - before).isEqualTo(1);
        }
    }

    @Test
    void getUnreadShowsTheDrainOutcome() throws Exception {
        try (FixtureServer fixture = FixtureServer.start(0)) {
            int code = run("get", "-v", "--unread", "--policy", "none", fixture.uri("/bytes?n=4096").toString());
            assertThat(code).as(stderr()).isZero();
            assertThat(stdout()).isEmpty();
            assertThat(stderr()).contains("SKIPPED_POLICY");
        }
    }

    @Test
    void getReportsARefusedConnection() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        assertThat(run("get", "http://127.0.0.1:" + port + "/")).isEqualTo(1);
        assertThat(stderr()).contains("connection refused");
    }

    @Test
    void durationsReadTheWayPeopleWriteThem() {
        assertThat(DurationConverter.parse("20ms")).isEqualTo(Duration.ofMillis(20));
        assertThat(DurationConverter.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(DurationConverter.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    }
}
