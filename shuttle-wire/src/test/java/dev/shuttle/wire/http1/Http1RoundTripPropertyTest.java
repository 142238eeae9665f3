package dev.shuttle.wire.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Write → parse round trips for arbitrary valid heads and bodies, delivered in arbitrary read-chunk splits, with a
 * second message pipelined behind the first: what comes out is what went in, and the first body ends exactly where
 * the second message begins.
 */
class Http1RoundTripPropertyTest {
    private static final String TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final Http1Limits LIMITS = new Http1Limits(8192, 65536, 1000, 4096, 65536);

    enum Framing { CONTENT_LENGTH, CHUNKED, CLOSE_DELIMITED }

    @Property(tries = 300)
    void requestsSurviveWriteThenParseInAnySplit(@ForAll("requestHeads") RequestHead head,
                                                 @ForAll("bodies") byte[] body,
                                                 @ForAll boolean chunked,
                                                 @ForAll("trailers") Headers trailers,
                                                 @ForAll("sizes") List<Integer> writeSizes,
                                                 @ForAll("sizes") List<Integer> readSplits) throws IOException {
        boolean useChunked = chunked && head.version() == HttpVersion.HTTP_1_1;
        RequestHead framed = withFraming(head, useChunked ? Framing.CHUNKED : Framing.CONTENT_LENGTH, body.length);
        RequestHead next = new RequestHead("GET", "/next", HttpVersion.HTTP_1_1, Headers.of("Host", "n"));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(Http1HeadWriter.encode(framed));
        writeBody(wire, useChunked ? Framing.CHUNKED : Framing.CONTENT_LENGTH, body, writeSizes, trailers);
        wire.write(Http1HeadWriter.encode(next));

        ScriptedSource source = new ScriptedSource(new byte[0], split(wire.toByteArray(), readSplits));
        Http1HeadParser parser = new Http1HeadParser(LIMITS);

        RequestHead parsed = readRequest(parser, source);
        assertThat(parsed).isEqualTo(framed);
        BodyInputStream in = new BodyInputStream(source, BodyFraming.ofRequest(parsed).newDecoder(LIMITS));
        assertThat(in.readAllBytes()).isEqualTo(body);
        assertThat(in.decoder().trailers()).isEqualTo(useChunked ? trailers : Headers.EMPTY);
        assertThat(readRequest(parser, source)).isEqualTo(next);
        assertThat(source.buffer().hasRemaining()).isFalse();
        assertThat(source.fill()).isEqualTo(-1);
    }

    @Property(tries = 300)
    void responsesSurviveWriteThenParseInAnySplit(@ForAll("responseHeads") ResponseHead head,
                                                  @ForAll("bodies") byte[] body,
                                                  @ForAll Framing framing,
                                                  @ForAll("trailers") Headers trailers,
                                                  @ForAll("sizes") List<Integer> writeSizes,
                                                  @ForAll("sizes") List<Integer> readSplits) throws IOException {
        ResponseHead framed = withFraming(head, framing, body.length);
        ResponseHead next = new ResponseHead(HttpVersion.HTTP_1_1, 204, "No Content", Headers.EMPTY);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(Http1HeadWriter.encode(framed));
        writeBody(wire, framing, body, writeSizes, trailers);
        if (framing != Framing.CLOSE_DELIMITED) {
            wire.write(Http1HeadWriter.encode(next));
        }

        ScriptedSource source = new ScriptedSource(new byte[0], split(wire.toByteArray(), readSplits));
        Http1HeadParser parser = new Http1HeadParser(LIMITS);

        ResponseHead parsed = readResponse(parser, source);
        assertThat(parsed).isEqualTo(framed);
        BodyInputStream in = new BodyInputStream(source, BodyFraming.ofResponse("GET", parsed).newDecoder(LIMITS));
        assertThat(in.readAllBytes()).isEqualTo(body);
        assertThat(in.decoder().trailers()).isEqualTo(framing == Framing.CHUNKED ? trailers : Headers.EMPTY);
        if (framing != Framing.CLOSE_DELIMITED) {
            assertThat(readResponse(parser, source)).isEqualTo(next);
        }
        assertThat(source.buffer().hasRemaining()).isFalse();
    }

    @Property(tries = 500)
    void chunkedEncodeThenDecodeIsIdentity(@ForAll("bodies") byte[] body,
                                           @ForAll("sizes") List<Integer> writeSizes,
                                           @ForAll("sizes") List<Integer> readSplits,
                                           @ForAll @IntRange(min = 1, max = 50) int outputSize,
                                           @ForAll("trailers") Headers trailers) throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        writeBody(wire, Framing.CHUNKED, body, writeSizes, trailers);
        byte[] encoded = wire.toByteArray();
        BodyDecoder decoder = BodyFraming.CHUNKED.newDecoder(LIMITS);
        ByteBuffer input = ByteBuffer.wrap(encoded);
        input.limit(0);
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        ByteBuffer output = ByteBuffer.allocate(outputSize);
        int splitIndex = 0;
        while (!decoder.isComplete()) {
            if (!input.hasRemaining()) {
                assertThat(input.limit()).as("decoder wants more than was written").isLessThan(encoded.length);
                int step = readSplits.get(splitIndex++ % readSplits.size());
                input.limit(Math.min(encoded.length, input.limit() + step));
            }
            output.clear();
            int n = decoder.decode(input, output);
            decoded.write(output.array(), 0, n);
        }

        assertThat(decoded.toByteArray()).isEqualTo(body);
        assertThat(decoder.bodyBytesRead()).isEqualTo(body.length);
        assertThat(decoder.trailers()).isEqualTo(trailers);
        assertThat(input.position()).isEqualTo(encoded.length);
    }

    @Property(tries = 300)
    void headsParseTheSameWhateverTheSplit(@ForAll("requestHeads") RequestHead head,
                                           @ForAll("sizes") List<Integer> readSplits) throws IOException {
        byte[] wire = Http1HeadWriter.encode(head);
        RequestHead whole = new Http1HeadParser(LIMITS).parseRequest(ByteBuffer.wrap(wire));

        assertThat(whole).isEqualTo(head);
        assertThat(readRequest(new Http1HeadParser(LIMITS), new ScriptedSource(new byte[0], split(wire, readSplits))))
                .isEqualTo(whole);
    }

    // --- generators ---

    @Provide
    Arbitrary<RequestHead> requestHeads() {
        Arbitrary<String> target = Arbitraries.strings().withCharRange('!', '~').ofMaxLength(40).map(t -> "/" + t);
        return Combinators.combine(tokens(), target, Arbitraries.of(HttpVersion.HTTP_1_0, HttpVersion.HTTP_1_1),
                fields(), Arbitraries.integers().between(0, 10), Arbitraries.of(true, false))
                .as((method, path, version, fields, hostAt, hostOn10) -> {
                    Headers.Builder headers = Headers.builder();
                    boolean host = version == HttpVersion.HTTP_1_1 || hostOn10;
                    for (int i = 0; i < fields.size(); i++) {
                        if (host && i == Math.min(hostAt, fields.size() - 1)) {
                            headers.add("Host", "example.com:8080");
                            host = false;
                        }
                        headers.add(fields.get(i)[0], fields.get(i)[1]);
                    }
                    if (host) {
                        headers.add("host", "h");
                    }
                    return new RequestHead(method, path, version, headers.build());
                });
    }

    @Provide
    Arbitrary<ResponseHead> responseHeads() {
        Arbitrary<Integer> status = Arbitraries.integers().between(200, 999).filter(s -> s != 204 && s != 304);
        Arbitrary<String> reason = Arbitraries.strings().withChars('\t', ' ').withCharRange('!', '~')
                .withCharRange('\u0080', '\u00ff').ofMaxLength(30);
        return Combinators.combine(Arbitraries.of(HttpVersion.HTTP_1_0, HttpVersion.HTTP_1_1), status, reason, fields())
                .as((version, code, text, fields) -> {
                    Headers.Builder headers = Headers.builder();
                    fields.forEach(field -> headers.add(field[0], field[1]));
                    return new ResponseHead(version, code, text, headers.build());
                });
    }

    @Provide
    Arbitrary<byte[]> bodies() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(40),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(3000));
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Arbitraries.integers().between(1, 300).list().ofMinSize(1).ofMaxSize(8);
    }

    @Provide
    Arbitrary<Headers> trailers() {
        return fields().map(fields -> {
            Headers.Builder trailers = Headers.builder();
            fields.stream().limit(4).forEach(field -> trailers.add(field[0], field[1]));
            return trailers.build();
        });
    }

    private static Arbitrary<String> tokens() {
        return Arbitraries.strings().withChars(TCHARS.toCharArray()).ofMinLength(1).ofMaxLength(12);
    }

    /** Field values as a parser returns them: valid characters, no leading or trailing whitespace. */
    private static Arbitrary<List<String[]>> fields() {
        Arbitrary<String> names = tokens().filter(name -> !name.equalsIgnoreCase("Host")
                && !name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding"));
        Arbitrary<String> values = Arbitraries.strings().withChars('\t', ' ').withCharRange('!', '~')
                .withCharRange('\u0080', '\u00ff').ofMaxLength(40).map(Http1RoundTripPropertyTest::stripOws);
        return Combinators.combine(names, values).as((name, value) -> new String[] {name, value}).list().ofMaxSize(12);
    }

    // --- helpers ---

    private static String stripOws(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }

    private static <H> H withFraming(H head, Framing framing, int length) {
        if (head instanceof RequestHead request) {
            @SuppressWarnings("unchecked")
            H framed = (H) new RequestHead(request.method(), request.target(), request.version(),
                    addFraming(request.headers(), framing, length));
            return framed;
        }
        ResponseHead response = (ResponseHead) head;
        @SuppressWarnings("unchecked")
        H framed = (H) new ResponseHead(response.version(), response.status(), response.reason(),
                addFraming(response.headers(), framing, length));
        return framed;
    }

    private static Headers addFraming(Headers headers, Framing framing, int length) {
        return switch (framing) {
            case CONTENT_LENGTH -> headers.toBuilder().add("Content-Length", String.valueOf(length)).build();
            case CHUNKED -> headers.toBuilder().add("Transfer-Encoding", "chunked").build();
            case CLOSE_DELIMITED -> headers;
        };
    }

    private static void writeBody(OutputStream wire, Framing framing, byte[] body, List<Integer> writeSizes,
                                  Headers trailers) throws IOException {
        OutputStream out = switch (framing) {
            case CONTENT_LENGTH -> new FixedLengthBodyOutputStream(wire, body.length);
            case CHUNKED -> new ChunkedBodyOutputStream(wire);
            case CLOSE_DELIMITED -> wire;
        };
        int at = 0;
        for (int i = 0; at < body.length; i++) {
            int n = Math.min(body.length - at, writeSizes.get(i % writeSizes.size()));
            out.write(body, at, n);
            at += n;
        }
        if (out instanceof ChunkedBodyOutputStream chunked) {
            chunked.finish(trailers);
        } else if (out != wire) {
            out.close();
        }
    }

    private static byte[][] split(byte[] wire, List<Integer> sizes) {
        List<byte[]> chunks = new ArrayList<>();
        int at = 0;
        for (int i = 0; at < wire.length; i++) {
            int n = Math.min(wire.length - at, sizes.get(i % sizes.size()));
            chunks.add(Arrays.copyOfRange(wire, at, at + n));
            at += n;
        }
        return chunks.toArray(new byte[0][]);
    }

    static RequestHead readRequest(Http1HeadParser parser, Http1Source source) throws IOException {
        while (true) {
            RequestHead head = parser.parseRequest(source.buffer());
            if (head != null) {
                return head;
            }
            if (source.fill() < 0) {
                throw new AssertionError("input ended inside a request head");
            }
        }
    }

    static ResponseHead readResponse(Http1HeadParser parser, Http1Source source) throws IOException {
        while (true) {
            ResponseHead head = parser.parseResponse(source.buffer());
            if (head != null) {
                return head;
            }
            if (source.fill() < 0) {
                throw new AssertionError("input ended inside a response head");
            }
        }
    }
}
