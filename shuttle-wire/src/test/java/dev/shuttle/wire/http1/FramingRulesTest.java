package dev.shuttle.wire.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FramingRulesTest {

    // --- requests ---

    @Test
    void requestWithoutLengthOrCodingHasNoBody() throws Exception {
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1))).isEqualTo(BodyFraming.EMPTY);
    }

    @Test
    void requestWithContentLengthHasThatManyBytes() throws Exception {
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Content-Length", "42")))
                .isEqualTo(new BodyFraming.ContentLength(42));
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_0, "Content-Length", "0")))
                .isEqualTo(new BodyFraming.ContentLength(0));
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Content-Length", String.valueOf(Long.MAX_VALUE))))
                .isEqualTo(new BodyFraming.ContentLength(Long.MAX_VALUE));
    }

    @Test
    void identicalRepeatedContentLengthsAreOneLength() throws Exception {
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Content-Length", "5", "Content-Length", "5")))
                .isEqualTo(new BodyFraming.ContentLength(5));
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Content-Length", "5, 5,5")))
                .isEqualTo(new BodyFraming.ContentLength(5));
    }

    @Test
    void differingContentLengthsAreRejected() {
        assertRequestRejected(400, "differing Content-Length", "Content-Length", "5", "Content-Length", "6");
        assertRequestRejected(400, "differing Content-Length", "Content-Length", "5, 6");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "-1", "+5", "5 5", "0x10", "1.0", "5,", ",5", "9223372036854775808",
            "99999999999999999999999"})
    void malformedContentLengthIsRejected(String value) {
        assertRequestRejected(400, "invalid Content-Length", "Content-Length", value);
    }

    @Test
    void contentLengthWithTransferEncodingIsRejected() {
        assertRequestRejected(400, "both Content-Length and Transfer-Encoding",
                "Content-Length", "5", "Transfer-Encoding", "chunked");
        assertRequestRejected(400, "both Content-Length and Transfer-Encoding",
                "Transfer-Encoding", "chunked", "Content-Length", "0");
    }

    @Test
    void chunkedRequestIsChunked() throws Exception {
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Transfer-Encoding", "chunked")))
                .isEqualTo(BodyFraming.CHUNKED);
        assertThat(BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, "Transfer-Encoding", "Chunked")))
                .isEqualTo(BodyFraming.CHUNKED);
    }

    @Test
    void transferEncodingOnHttp10RequestIsRejected() {
        RequestHead head = new RequestHead("POST", "/", HttpVersion.HTTP_1_0,
                Headers.of("Transfer-Encoding", "chunked"));

        assertThatThrownBy(() -> BodyFraming.ofRequest(head))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("Transfer-Encoding in an HTTP/1.0 request");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "identity", "chunked, gzip", "chunked,identity", "", " , "})
    void requestCodingNotEndingInChunkedIs400(String codings) {
        assertRequestRejected(400, "Transfer-Encoding", "Transfer-Encoding", codings);
    }

    @Test
    void chunkedTwiceIs400() {
        assertRequestRejected(400, "chunked applied more than once", "Transfer-Encoding", "chunked, chunked");
        assertRequestRejected(400, "chunked applied more than once",
                "Transfer-Encoding", "chunked", "Transfer-Encoding", "chunked");
    }

    @Test
    void otherCodingBeforeChunkedIs501() {
        assertRequestRejected(501, "transfer coding not implemented: gzip", "Transfer-Encoding", "gzip, chunked");
        assertRequestRejected(501, "transfer coding not implemented: x-custom",
                "Transfer-Encoding", "x-custom", "Transfer-Encoding", "chunked");
    }

    // --- responses ---

    @Test
    void responsesWithoutABodyByRule() throws Exception {
        assertThat(BodyFraming.ofResponse("HEAD", response(200, "Content-Length", "100"))).isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("HEAD", response(200, "Transfer-Encoding", "chunked")))
                .isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("GET", response(100))).isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("GET", response(101))).isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("GET", response(204, "Content-Length", "3"))).isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("GET", response(304, "Content-Length", "3"))).isEqualTo(BodyFraming.EMPTY);
        assertThat(BodyFraming.ofResponse("CONNECT", response(200))).isEqualTo(BodyFraming.EMPTY);
    }

    @Test
    void failedConnectHasABody() throws Exception {
        assertThat(BodyFraming.ofResponse("CONNECT", response(407, "Content-Length", "4")))
                .isEqualTo(new BodyFraming.ContentLength(4));
    }

    @Test
    void chunkedWinsOverContentLengthInResponses() throws Exception {
        assertThat(BodyFraming.ofResponse("GET", response(200, "Content-Length", "3", "Transfer-Encoding", "chunked")))
                .isEqualTo(BodyFraming.CHUNKED);
        assertThat(BodyFraming.ofResponse("GET", response(200, "Transfer-Encoding", "gzip, chunked")))
                .isEqualTo(BodyFraming.CHUNKED);
    }

    @Test
    void responseCodingNotEndingInChunkedRunsToClose() throws Exception {
        assertThat(BodyFraming.ofResponse("GET", response(200, "Transfer-Encoding", "gzip")))
                .isEqualTo(BodyFraming.CLOSE_DELIMITED);
        assertThat(BodyFraming.ofResponse("GET", response(200, "Transfer-Encoding", "chunked, gzip",
                "Content-Length", "10"))).isEqualTo(BodyFraming.CLOSE_DELIMITED);
    }

    @Test
    void responseWithoutLengthRunsToClose() throws Exception {
        assertThat(BodyFraming.ofResponse("GET", response(200))).isEqualTo(BodyFraming.CLOSE_DELIMITED);
    }

    @Test
    void responseContentLengthIsUsedWhenValid() throws Exception {
        assertThat(BodyFraming.ofResponse("POST", response(201, "Content-Length", "7", "content-length", "7")))
                .isEqualTo(new BodyFraming.ContentLength(7));
    }

    @Test
    void responseWithBadContentLengthIsAnError() {
        assertThatThrownBy(() -> BodyFraming.ofResponse("GET", response(200, "Content-Length", "7", "Content-Length", "8")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("differing Content-Length values in response");
        assertThatThrownBy(() -> BodyFraming.ofResponse("GET", response(200, "Content-Length", "-7")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("invalid Content-Length in response");
    }

    @Test
    void responseApplyingChunkedTwiceIsAnError() {
        assertThatThrownBy(() -> BodyFraming.ofResponse("GET", response(200, "Transfer-Encoding", "chunked, chunked")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("chunked more than once");
    }

    private static RequestHead request(HttpVersion version, String... fields) {
        return new RequestHead("POST", "/", version, Headers.of(fields).toBuilder().add("Host", "a").build());
    }

    private static ResponseHead response(int status, String... fields) {
        return new ResponseHead(HttpVersion.HTTP_1_1, status, "", Headers.of(fields));
    }

    private static void assertRequestRejected(int status, String message, String... fields) {
        assertThatThrownBy(() -> BodyFraming.ofRequest(request(HttpVersion.HTTP_1_1, fields)))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(status))
                .hasMessageContaining(message);
    }
}
