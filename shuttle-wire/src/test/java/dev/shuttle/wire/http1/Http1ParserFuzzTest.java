package dev.shuttle.wire.http1;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the whole HTTP/1 read path a peer controls: head parser, framing rules and body decoders, over a stream of
 * pipelined messages. Whatever the bytes, the codec may only answer with {@link Http1Exception}; it must make
 * progress on every call (no loop), parse the same whatever the read-chunk split, and every head it accepts must
 * survive write → parse unchanged.
 *
 * <p>{@code mvn verify} replays the seeds under {@code src/test/resources/.../Http1ParserFuzzTestInputs/} (regression
 * mode); the pom's {@code fuzz} surefire execution runs it again with {@code JAZZER_FUZZ=1}, fuzzing for
 * {@code maxDuration}.
 */
class Http1ParserFuzzTest {
    /** Small limits, so the fuzzer reaches every bound quickly. */
    private static final Http1Limits LIMITS = new Http1Limits(64, 512, 12, 40, 128);
    /** For re-parsing a written head, which may be a little larger than what was read ("a:b" becomes "a: b"). */
    private static final Http1Limits ROOMY = new Http1Limits(1 << 16, 1 << 16, 1000, 1000, 1000);

    /** {@code @Timeout} is also Jazzer's per-input limit while fuzzing: an input that makes the codec loop fails. */
    @FuzzTest(maxDuration = "20s")
    @Timeout(10)
    void codecOnlyEverThrowsHttp1Exception(FuzzedDataProvider data) {
        boolean response = data.consumeBoolean();
        int split = data.consumeInt(1, 40);
        byte[] input = data.consumeRemainingAsBytes();
        List<String> whole = readAll(input, input.length, response);
        List<String> pieces = readAll(input, split, response);
        assertThat(pieces).as("same result whatever the read split").isEqualTo(whole);
    }

    /**
     * Reads messages until the input runs out or an error; returns what was seen (heads, bodies, trailers, and the
     * final error or end state) so two runs can be compared.
     */
    static List<String> readAll(byte[] input, int split, boolean response) {
        List<String> seen = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(input);
        buffer.limit(Math.min(split, input.length));
        Http1HeadParser parser = new Http1HeadParser(LIMITS);
        try {
            for (int messages = 0; messages <= input.length; messages++) {
                BodyFraming framing;
                Object head = response ? parser.parseResponse(buffer) : parser.parseRequest(buffer);
                while (head == null) {
                    if (!grow(buffer, split)) {
                        seen.add(parser.inProgress() ? "end inside a head" : "end between messages");
                        return seen;
                    }
                    head = response ? parser.parseResponse(buffer) : parser.parseRequest(buffer);
                }
                seen.add(head.toString());
                if (head instanceof RequestHead request) {
                    assertThat(new Http1HeadParser(ROOMY).parseRequest(ByteBuffer.wrap(Http1HeadWriter.encode(request))))
                            .isEqualTo(request);
                    framing = BodyFraming.ofRequest(request);
                } else {
                    ResponseHead responseHead = (ResponseHead) head;
                    assertThat(new Http1HeadParser(ROOMY)
                            .parseResponse(ByteBuffer.wrap(Http1HeadWriter.encode(responseHead))))
                            .isEqualTo(responseHead);
                    framing = BodyFraming.ofResponse("GET", responseHead);
                }
                seen.add(framing.toString());
                seen.add(readBody(framing.newDecoder(LIMITS), buffer, split));
                if (framing instanceof BodyFraming.CloseDelimited) {
                    return seen;
                }
            }
            throw new AssertionError("more messages than input bytes");
        } catch (Http1Exception e) {
            assertThat(e.status()).isIn(400, 414, 431, 501, 505);
            seen.add("error " + e.status() + ": " + e.getMessage());
            return seen;
        }
    }

    private static String readBody(BodyDecoder decoder, ByteBuffer buffer, int split) throws Http1Exception {
        ByteBuffer output = ByteBuffer.allocate(7);
        StringBuilder body = new StringBuilder();
        while (!decoder.isComplete()) {
            int before = buffer.position();
            output.clear();
            int n = decoder.decode(buffer, output);
            assertThat(n).isEqualTo(output.position());
            for (int i = 0; i < n; i++) {
                body.append((char) (output.get(i) & 0xff));
            }
            if (decoder.isComplete()) {
                break;
            }
            if (buffer.hasRemaining()) {
                assertThat(buffer.position()).as("decoder made progress").isGreaterThan(before);
                continue;
            }
            if (!grow(buffer, split)) {
                decoder.endOfInput();
                assertThat(decoder.isComplete()).isTrue();
            }
        }
        assertThat(decoder.bodyBytesRead()).isEqualTo(body.length());
        return "body " + body + " trailers " + decoder.trailers();
    }

    /** Makes the next {@code split} bytes visible; false when the input is exhausted. */
    private static boolean grow(ByteBuffer buffer, int split) {
        if (buffer.limit() == buffer.capacity()) {
            return false;
        }
        buffer.limit((int) Math.min(buffer.capacity(), (long) buffer.limit() + split));
        return true;
    }
}
