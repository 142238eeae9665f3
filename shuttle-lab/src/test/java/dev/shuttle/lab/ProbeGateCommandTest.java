package dev.shuttle.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.lab.probe.ProbeGate;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.junit.ShuttleMockServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code shuttle probe --min-reuse / --max-handshakes} against mock servers: each exit code once. */
@Timeout(60)
class ProbeGateCommandTest {
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

    private int probe(String... args) {
        CommandLine line = ShuttleCommand.commandLine();
        line.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        String[] all = new String[args.length + 5];
        all[0] = "probe";
        all[1] = "--warmup";
        all[2] = "0";
        all[3] = "--no-progress";
        all[4] = "--requests=20";
        System.arraycopy(args, 0, all, 5, args.length);
        return line.execute(all);
    }

    /** The gate's line: the last line on stderr, and the only one starting with "shuttle probe:". */
    private String gateLine() {
        return err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("shuttle probe:"))
                .reduce((a, b) -> {
                    throw new AssertionError("more than one gate line: " + a + " / " + b);
                }).orElseThrow(() -> new AssertionError("no gate line in: " + err));
    }

    @Test
    void passesWhenEveryClientReusesEnough(@ShuttleMockServer MockServer server) throws Exception {
        MockResponse small = MockResponse.ofSize(2048);
        for (int i = 0; i < 20; i++) {
            server.enqueue(small);
        }
        int code = probe(server.url("/status").toString(), "--clients", "shuttle", "--min-reuse", "0.95");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ProbeGate.PASS);
        assertThat(gateLine()).isEqualTo("shuttle probe: pass: reuse >= 0.95 for 1 client");
        // The client's own count, which the gate judged, agrees with the server's.
        assertThat(server.connections()).isEqualTo(1);
        assertThat(server.requests()).isEqualTo(20);
    }

    @Test
    void failsBelowTheBoundWithOneLine(@ShuttleMockServer MockServer server) {
        for (int i = 0; i < 20; i++) {
            server.enqueue(MockResponse.builder().bodyOfSize(1024).connectionClose().build());
        }
        int code = probe(server.url("/").toString(), "--clients", "shuttle", "--min-reuse", "0.95");
        assertThat(code).isEqualTo(ProbeGate.BELOW_BOUND);
        assertThat(gateLine()).startsWith("shuttle probe: FAIL: shuttle reuse 0.00 < 0.95 (20 new connections for 20 "
                + "requests)");
        assertThat(server.connections()).isEqualTo(20);
    }

    @Test
    void countsHandshakesOverTls(@ShuttleMockServer(tls = true) MockServer server) {
        for (int i = 0; i < 20; i++) {
            server.enqueue(MockResponse.builder().bodyOfSize(512).connectionClose().build());
        }
        int code = probe(server.url("/").toString(), "--clients", "shuttle", "--insecure", "--max-handshakes", "5");
        assertThat(code).isEqualTo(ProbeGate.BELOW_BOUND);
        assertThat(gateLine()).isEqualTo("shuttle probe: FAIL: shuttle 20 TLS handshakes > 5");
        assertThat(server.tlsHandshakes()).isEqualTo(20);
    }

    @Test
    void passesTheHandshakeBoundWhenTheConnectionIsKept(@ShuttleMockServer(tls = true) MockServer server) {
        for (int i = 0; i < 20; i++) {
            server.enqueue(MockResponse.ofSize(512));
        }
        int code = probe(server.url("/").toString(), "--clients", "shuttle", "--insecure", "--max-handshakes", "1",
                "--min-reuse", "0.95");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ProbeGate.PASS);
        assertThat(gateLine()).isEqualTo("shuttle probe: pass: reuse >= 0.95, TLS handshakes <= 1 for 1 client");
        assertThat(server.tlsHandshakes()).isEqualTo(1);
    }

    @Test
    void unreachableIsItsOwnExitCode() throws Exception {
        int port;
        try (MockServer closed = MockServer.start()) {
            port = closed.port();
        }
        int code = probe("http://127.0.0.1:" + port + "/", "--clients", "shuttle", "--min-reuse", "0.95",
                "--timeout", "2s");
        assertThat(code).isEqualTo(ProbeGate.UNREACHABLE);
        assertThat(gateLine()).startsWith("shuttle probe: unreachable: http://127.0.0.1:" + port + "/");
    }

    @Test
    void aClientThatCannotCountItsConnectionsCannotBeJudged(@ShuttleMockServer MockServer server) {
        for (int i = 0; i < 20; i++) {
            server.enqueue(MockResponse.ofSize(100));
        }
        int code = probe(server.url("/").toString(), "--clients", "jdk", "--min-reuse", "0.5");
        assertThat(code).isEqualTo(ProbeGate.UNKNOWN);
        assertThat(gateLine()).isEqualTo("shuttle probe: cannot judge: jdk cannot count its connections");
    }

    @Test
    void aBoundOutOfRangeIsAUsageError() {
        assertThat(probe("http://127.0.0.1:1/", "--min-reuse", "1.5")).isEqualTo(ProbeGate.USAGE);
        assertThat(gateLine()).contains("--min-reuse must be in [0, 1]");
    }
}
