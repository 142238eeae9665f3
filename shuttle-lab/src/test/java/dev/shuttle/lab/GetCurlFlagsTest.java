package dev.shuttle.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.relay.SquidProxy;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code shuttle get} with curl's flags, end to end, System.out and System.err captured. */
class GetCurlFlagsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;
    private FixtureServer fixture;
    private HttpServer echo;

    @BeforeEach
    void start() throws Exception {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        fixture = FixtureServer.start(0);
        echo = HttpServer.builder().port(0).handler((request, response) -> {
            byte[] body = request.bodyBytes();
            response.send(request.method() + " " + request.target() + "\ntype " + request.header("Content-Type")
                    + "\nauth " + request.header("Authorization") + "\nx " + request.headers().all("X-Tag")
                    + "\nbody " + body.length + " " + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(body)).substring(0, 12) + "\n");
        }).start();
    }

    @AfterEach
    void stop() {
        System.setOut(savedOut);
        System.setErr(savedErr);
        fixture.close();
        echo.close();
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        CommandLine line = ShuttleCommand.commandLine();
        line.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        return line.execute(args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void redirectsAreFollowedWithLocationOnlyAndEachHopIsShown() {
        String url = fixture.uri("/redirect?hops=2&n=10").toString();
        assertThat(run("get", url)).isZero();
        assertThat(stderr()).startsWith("HTTP/1.1 302");
        assertThat(stdout()).hasSize(10);
        assertThat(run("get", "-L", "-v", url)).as(stderr()).isZero();
        assertThat(stderr()).contains("following the 302 to " + fixture.uri("/redirect?hops=1&n=10") + " (GET)")
                .contains("> GET /redirect?hops=0&n=10 HTTP/1.1").contains("< HTTP/1.1 200")
                .contains("REUSED connection");
    }

    @Test
    void compressedShowsTheEncodingAndTheBytesOnTheWire() {
        String url = fixture.uri("/gzip?n=65536").toString();
        assertThat(run("get", "--compressed", "-v", url)).as(stderr()).isZero();
        assertThat(stdout()).hasSize(65536);
        assertThat(stderr()).contains("> Accept-Encoding: gzip, deflate")
                .contains("(Content-Encoding: gzip decoded by the client")
                .containsPattern("body: 65536 bytes decoded from gzip, \\d+ bytes on the wire");
        assertThat(run("get", "-v", url)).isZero();
        assertThat(stderr()).doesNotContain("> Accept-Encoding").contains("body: 65536 bytes");
    }

    @Test
    void dataFormUserHeadersAndMethodMakeTheRequestCurlWould(@TempDir Path dir) throws Exception {
        String url = "http://127.0.0.1:" + echo.port() + "/e";
        Path file = dir.resolve("lines.txt");
        Files.writeString(file, "a=1\nb=2\n");
        assertThat(run("get", "-d", "x=1", "-d", "@" + file, "-u", "ada:lovelace", "-H", "X-Tag: one", "-H",
                "X-Tag: two", url)).as(stderr()).isZero();
        assertThat(stdout()).startsWith("POST /e\ntype application/x-www-form-urlencoded\nauth Basic YWRhOmxvdmVsYWNl\n"
                + "x [one, two]\nbody 10 "); // x=1&a=1b=2: curl drops the line breaks of -d @file
        assertThat(run("get", "--data-binary", "@" + file, "-H", "Content-Type: text/plain", "-X", "PUT", url))
                .isZero();
        assertThat(stdout()).startsWith("PUT /e\ntype text/plain\n").contains("body 8 ");
        assertThat(run("get", "-F", "name=ada", "-F", "file=@" + file + ";type=text/plain", url)).isZero();
        assertThat(stdout()).startsWith("POST /e\ntype multipart/form-data; boundary=");
        Path saved = dir.resolve("saved.txt");
        assertThat(run("get", "-o", saved.toString(), url)).isZero();
        assertThat(Files.readString(saved)).startsWith("GET /e\n");
        assertThat(stdout()).isEmpty();
        assertThat(run("get", "-H", "no colon", url)).isEqualTo(2);
        assertThat(stderr()).contains("-H wants \"Name: value\"");
    }

    @Test
    void aProxyAndItsTunnelAreShown() throws Exception {
        Optional<Path> squid = SquidProxy.binary();
        Assumptions.assumeTrue(squid.isPresent(), "squid is not installed (apt-get install squid): skipping");
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        try (SquidProxy proxy = SquidProxy.start(squid.get());
             FixtureServer secure = FixtureServer.startTls(0, certificate)) {
            String proxyUrl = "http://127.0.0.1:" + proxy.address().getPort();
            assertThat(run("get", "-v", "-x", proxyUrl, fixture.uri("/json").toString())).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n");
            assertThat(stderr()).contains("(proxy " + proxyUrl + ")")
                    .contains("> GET " + fixture.uri("/json") + " HTTP/1.1");
            assertThat(run("get", "-v", "-k", "-x", proxyUrl, secure.uri("/json").toString())).as(stderr()).isZero();
            assertThat(stdout()).isEqualTo("{\"a\":1}\n");
            assertThat(stderr()).contains("CONNECT 127.0.0.1:" + secure.port() + " through proxy " + proxyUrl)
                    .contains("tunnel to 127.0.0.1:" + secure.port() + " open").contains("(proxy " + proxyUrl
                            + ", tunnel)").contains("< HTTP/2 200");
        }
    }
}
