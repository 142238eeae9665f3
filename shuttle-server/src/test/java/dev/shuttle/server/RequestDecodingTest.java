package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Decoded path segments and query parameters as real clients' requests arrive, over HTTP/1.1 and HTTP/2. */
class RequestDecodingTest {
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().handler((request, response) -> {
            String text;
            try {
                text = request.pathSegments() + " " + request.queryParameters().toMap();
            } catch (IllegalArgumentException e) {
                text = "bad: " + e.getMessage();
            }
            response.send(text);
        }).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url(String target) {
        return "http://127.0.0.1:" + server.port() + target;
    }

    @Test
    void curlOverBothProtocolsGetsTheSameDecoding() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        String target = "/a%2Fb/c+d/%E2%82%AC?q=1+1&x=%20y&x=z";
        for (String protocol : List.of("--http1.1", "--http2-prior-knowledge")) {
            ExternalProcess.Result result = ExternalProcess.run(List.of("curl", "-s", protocol, url(target)));
            assertThat(result.exitCode()).as(result.stderr()).isZero();
            assertThat(result.stdout()).isEqualTo("[a/b, c+d, €] {q=[1+1], x=[ y, z]}");
        }
    }

    @Test
    void pythonUrllibQuotedPathArrivesDecoded() throws Exception {
        ExternalProcess.assumeInstalled("python3", "python3");
        String script = """
                import sys, urllib.request, urllib.parse
                path = '/' + urllib.parse.quote('dir name', safe='') + '/' + urllib.parse.quote('a+b&c', safe='')
                query = urllib.parse.urlencode({'name': 'Zo\\u00eb & co', 'n': '1'})
                # the body's UTF-8 bytes as they came, whatever the locale's encoding of stdout
                sys.stdout.buffer.write(urllib.request.urlopen('http://127.0.0.1:%d' + path + '?' + query).read())
                """.formatted(server.port());
        ExternalProcess.Result result = ExternalProcess.run(List.of("/usr/bin/python3", "-c", script));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        // urlencode writes a space as "+", which RFC 3986 decoding keeps: forms want QueryParameters.parseForm.
        assertThat(result.stdout().strip()).isEqualTo("[dir name, a+b&c] {name=[Zo\u00eb+&+co], n=[1]}");
    }

    @Test
    void aMalformedPathEscapeIsAClearError() throws Exception {
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/a/%zz").bodyText()).startsWith("bad: malformed percent-encoding");
        }
    }
}
