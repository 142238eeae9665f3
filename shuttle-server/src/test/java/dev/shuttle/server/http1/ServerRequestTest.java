package dev.shuttle.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.Http1Limits;
import dev.shuttle.wire.http1.RequestHead;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerRequestTest {
    @ParameterizedTest(name = "{0} {1} -> path {2}, query {3}")
    @CsvSource(nullValues = "null", value = {
            "GET, /, /, null",
            "GET, /a/b?x=1&y=2, /a/b, x=1&y=2",
            "GET, /a%20b?, /a%20b, ''",
            "GET, /p?q?r, /p, q?r",
            "GET, http://example.com, /, null",
            "GET, http://example.com?x, /, x",
            "GET, http://example.com:8080/a?b, /a, b",
            "OPTIONS, *, *, null",
            "CONNECT, example.com:443, '', null"})
    void pathAndQueryComeFromTheTarget(String method, String target, String path, String query) {
        RequestHead head = new RequestHead(method, target, HttpVersion.HTTP_1_1, Headers.of("Host", "h"));
        var decoder = BodyFraming.EMPTY.newDecoder(Http1Limits.serverDefaults());
        ServerRequest request = new ServerRequest(head, BodyFraming.EMPTY, decoder, null, null, null);
        assertThat(request.path()).isEqualTo(path);
        assertThat(request.query()).isEqualTo(query);
        assertThat(request.contentLength()).isZero();
    }
}
