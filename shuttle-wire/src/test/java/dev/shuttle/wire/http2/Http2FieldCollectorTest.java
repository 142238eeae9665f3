package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2FrameReaderTest.assertStreamError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.shuttle.wire.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Http2FieldCollectorTest {

    @Test
    void collectsARequestHeadWithRegularFieldsInOrder() throws Exception {
        Http2RequestHead head = request(":method", "GET", ":scheme", "https", ":authority", "example.com",
                ":path", "/a?b", "accept", "*/*", "x-multi", "1", "x-multi", "2");

        assertThat(head).isEqualTo(new Http2RequestHead("GET", "https", "example.com", "/a?b",
                Headers.of("accept", "*/*", "x-multi", "1", "x-multi", "2")));
    }

    @Test
    void joinsCookieCrumbsWithSemicolonSpace() throws Exception {
        Http2RequestHead head = request(":method", "GET", ":scheme", "https", ":path", "/",
                "cookie", "a=1", "accept", "*/*", "cookie", "b=2", "cookie", "c=3");

        assertThat(head.headers()).isEqualTo(Headers.of("accept", "*/*", "cookie", "a=1; b=2; c=3"));
    }

    @Test
    void connectCarriesOnlyMethodAndAuthority() throws Exception {
        Http2RequestHead head = request(":method", "CONNECT", ":authority", "proxy.example:443");

        assertThat(head.scheme()).isNull();
        assertThat(head.path()).isNull();
        assertThat(head.authority()).isEqualTo("proxy.example:443");
    }

    @Test
    void optionsMayUseAnAsteriskPath() throws Exception {
        assertThat(request(":method", "OPTIONS", ":scheme", "https", ":path", "*").path()).isEqualTo("*");
    }

    @Test
    void hostStandsInForAMissingAuthority() throws Exception {
        Http2RequestHead head = request(":method", "GET", ":scheme", "http", ":path", "/", "host", "h.example");

        assertThat(head.authority()).isNull();
        assertThat(head.authorityOrHost()).isEqualTo("h.example");
    }

    @Test
    void collectsAResponseAndTrailers() throws Exception {
        Http2FieldCollector response = Http2FieldCollector.forResponse(1);
        response.field(":status", "204");
        response.field("server", "s");
        Http2FieldCollector trailers = Http2FieldCollector.forTrailers(1);
        trailers.field("grpc-status", "0");

        assertThat(response.response()).isEqualTo(new Http2ResponseHead(204, Headers.of("server", "s")));
        assertThat(trailers.trailers()).isEqualTo(Headers.of("grpc-status", "0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"})
    void connectionSpecificFieldsAreMalformed(String name) {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", name, "x");
    }

    @Test
    void teOtherThanTrailersIsMalformed() throws Exception {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "te", "gzip");
        assertThat(request(":method", "GET", ":scheme", "https", ":path", "/", "te", "trailers").headers()
                .first("te")).isEqualTo("trailers");
    }

    @Test
    void upperCaseNamesAreMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "Accept", "*/*");
    }

    @Test
    void namesThatAreNotTokensAreMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "a b", "x");
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "", "x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\rb", "a\nb", "a\u0000b", " a", "a ", "\ta", "a\t", "a\u007fb"})
    void valuesWithControlCharactersOrOuterWhitespaceAreMalformed(String value) {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "x-v", value);
    }

    @Test
    void pseudoHeaderAfterARegularFieldIsMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", "accept", "*/*", ":path", "/");
    }

    @Test
    void repeatedPseudoHeaderIsMalformed() {
        assertMalformed(":method", "GET", ":method", "GET", ":scheme", "https", ":path", "/");
    }

    @ParameterizedTest
    @ValueSource(strings = {":status", ":protocol", ":foo"})
    void undefinedOrResponsePseudoHeadersInARequestAreMalformed(String name) {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", name, "x");
    }

    @Test
    void missingMethodSchemeOrPathIsMalformed() {
        assertMalformed(":scheme", "https", ":path", "/");
        assertMalformed(":method", "GET", ":path", "/");
        assertMalformed(":method", "GET", ":scheme", "https");
    }

    @Test
    void emptyOrRelativePathIsMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "");
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "a/b");
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "*");
    }

    @Test
    void connectWithSchemeOrPathOrWithoutAuthorityIsMalformed() {
        assertMalformed(":method", "CONNECT", ":authority", "a:443", ":path", "/");
        assertMalformed(":method", "CONNECT", ":authority", "a:443", ":scheme", "https");
        assertMalformed(":method", "CONNECT");
    }

    @Test
    void authorityWithUserinfoIsMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":authority", "user@h", ":path", "/");
    }

    @Test
    void hostThatDiffersFromAuthorityIsMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":authority", "a", ":path", "/", "host", "b");
    }

    @Test
    void repeatedHostIsMalformed() {
        assertMalformed(":method", "GET", ":scheme", "https", ":path", "/", "host", "a", "host", "a");
    }

    @Test
    void responseNeedsAThreeDigitStatusOtherThan101() {
        for (String status : new String[] {"20", "2000", "abc", "101", "600"}) {
            Http2FieldCollector fields = Http2FieldCollector.forResponse(3);
            fields.field(":status", status);
            assertStreamError(catchThrowableOfType(Http2Exception.class, fields::response), 3,
                    Http2ErrorCode.PROTOCOL_ERROR);
        }
        Http2FieldCollector missing = Http2FieldCollector.forResponse(3);
        missing.field("server", "s");
        assertStreamError(catchThrowableOfType(Http2Exception.class, missing::response), 3,
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void requestPseudoHeadersInAResponseAreMalformed() {
        Http2FieldCollector fields = Http2FieldCollector.forResponse(3);
        fields.field(":status", "200");
        fields.field(":path", "/");

        assertStreamError(catchThrowableOfType(Http2Exception.class, fields::response), 3,
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void pseudoHeadersInTrailersAreMalformed() {
        Http2FieldCollector fields = Http2FieldCollector.forTrailers(5);
        fields.field(":status", "200");

        assertStreamError(catchThrowableOfType(Http2Exception.class, fields::trailers), 5,
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    private static Http2RequestHead request(String... namesAndValues) throws Http2Exception {
        Http2FieldCollector fields = Http2FieldCollector.forRequest(1);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.field(namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields.request();
    }

    private static void assertMalformed(String... namesAndValues) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> request(namesAndValues));
        assertStreamError(e, 1, Http2ErrorCode.PROTOCOL_ERROR);
    }
}
