package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.shuttle.wire.hpack.HpackDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the whole HTTP/2 read path a peer controls, as a connection strings it together: frame reader, header
 * block assembly, HPACK decoder and field rules, plus SETTINGS and flow-control arithmetic. Whatever the octets, the
 * codec may only answer with {@link Http2Exception}; every call makes progress (a frame consumes at least its 9-octet
 * header, an incomplete one consumes nothing); the result is the same whatever the read split; and memory stays
 * bounded: no field block beyond its limit, no field list beyond the list limit, no dynamic table beyond its size.
 *
 * <p>{@code mvn verify} replays the seeds under {@code src/test/resources/.../Http2ReadPathFuzzTestInputs/}; the
 * pom's {@code fuzz-http2} surefire execution runs it again with {@code JAZZER_FUZZ=1}, fuzzing for
 * {@code maxDuration}.
 */
class Http2ReadPathFuzzTest {
    /** Small limits, so the fuzzer reaches every bound quickly. */
    private static final int MAX_BLOCK = 512;
    private static final int MAX_CONTINUATIONS = 4;
    private static final int MAX_LIST = 300;
    private static final int TABLE_SIZE = 256;

    /** {@code @Timeout} is also Jazzer's per-input limit while fuzzing: an input that makes the codec loop fails. */
    @FuzzTest(maxDuration = "10s")
    @Timeout(10)
    void readPathOnlyEverThrowsHttp2Exception(FuzzedDataProvider data) {
        boolean server = data.consumeBoolean();
        int split = data.consumeInt(1, 64);
        byte[] input = data.consumeRemainingAsBytes();
        List<String> whole = readAll(input, input.length, server);
        List<String> pieces = readAll(input, split, server);
        assertThat(pieces).as("same result whatever the read split").isEqualTo(whole);
    }

    /** Reads frames until the input runs out or a connection error; returns what was seen, for comparison. */
    static List<String> readAll(byte[] input, int split, boolean server) {
        List<String> seen = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(input);
        buffer.limit(Math.min(split, input.length));
        Connection connection = new Connection(server, seen);
        try {
            while (true) {
                int before = buffer.position();
                Http2Frame frame;
                try {
                    frame = connection.reader.read(buffer);
                } catch (Http2Exception e) {
                    if (e.isConnectionError()) {
                        throw e;
                    }
                    assertThat(buffer.position() - before).as("stream error after the frame")
                            .isGreaterThanOrEqualTo(9);
                    seen.add("rst " + e.streamId() + " " + e.error());
                    continue;
                }
                if (frame == null) {
                    assertThat(buffer.position()).as("incomplete frame consumes nothing").isEqualTo(before);
                    if (!grow(buffer, split)) {
                        seen.add(buffer.hasRemaining() ? "end inside a frame" : "end between frames");
                        return seen;
                    }
                    continue;
                }
                assertThat(buffer.position() - before).as("a frame consumes its header")
                        .isGreaterThanOrEqualTo(9);
                connection.handle(frame);
            }
        } catch (Http2Exception e) {
            assertThat(e.isConnectionError()).isTrue();
            seen.add("goaway " + e.error() + ": " + e.getMessage());
            return seen;
        }
    }

    /** The receiving half of a connection, far enough to reach every decoder. */
    private static final class Connection {
        final Http2FrameReader reader = new Http2FrameReader();
        final HeaderBlockAssembler blocks = new HeaderBlockAssembler(MAX_BLOCK, MAX_CONTINUATIONS);
        final HpackDecoder decoder = new HpackDecoder(MAX_LIST, TABLE_SIZE);
        final Http2Window connectionWindow = new Http2Window(0, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        final boolean server;
        final List<String> seen;
        Http2Settings peer = Http2Settings.DEFAULTS;

        Connection(boolean server, List<String> seen) {
            this.server = server;
            this.seen = seen;
        }

        void handle(Http2Frame read) throws Http2Exception {
            Http2Frame frame = blocks.accept(read);
            if (frame == null) {
                seen.add("continued " + read.streamId());
                return;
            }
            switch (frame) {
                case HeadersFrame headers -> fieldBlock(headers.streamId(), headers.fragment(), false);
                case PushPromiseFrame push -> fieldBlock(push.promisedStreamId(), push.fragment(), true);
                case SettingsFrame settings -> {
                    peer = peer.apply(settings);
                    seen.add("settings " + peer);
                }
                case DataFrame data -> {
                    Http2Window stream = new Http2Window(data.streamId(), 100);
                    try {
                        stream.receive(data.flowControlledLength());
                        seen.add("data " + data.streamId() + " " + data.data().remaining());
                    } catch (Http2Exception e) {
                        seen.add("rst " + e.streamId() + " " + e.error());
                    }
                    connectionWindow.receive(data.flowControlledLength());
                    connectionWindow.increase(data.flowControlledLength() == 0 ? 1 : data.flowControlledLength());
                }
                case WindowUpdateFrame update -> {
                    Http2Window window = new Http2Window(update.streamId(), Integer.MAX_VALUE - 1000);
                    try {
                        window.increase(update.increment());
                        seen.add("window " + window);
                    } catch (Http2Exception e) {
                        seen.add("flow " + e.streamId() + " " + e.error());
                    }
                }
                default -> seen.add(frame.toString());
            }
        }

        private void fieldBlock(int streamId, ByteBuffer block, boolean promise) throws Http2Exception {
            assertThat(block.remaining()).isLessThanOrEqualTo(MAX_BLOCK);
            Http2FieldCollector fields = server && !promise
                    ? Http2FieldCollector.forRequest(streamId) : Http2FieldCollector.forResponse(streamId);
            long[] listSize = {0};
            boolean fits = decoder.decode(block, (name, value) -> {
                listSize[0] += name.length() + value.length() + 32;
                fields.field(name, value);
            });
            assertThat(listSize[0]).isLessThanOrEqualTo(MAX_LIST);
            assertThat(decoder.tableSize()).isLessThanOrEqualTo(TABLE_SIZE);
            if (!fits) {
                seen.add("431 on " + streamId);
                return;
            }
            try {
                seen.add(server && !promise ? fields.request().toString() : fields.response().toString());
            } catch (Http2Exception e) {
                assertThat(e.isConnectionError()).isFalse();
                seen.add("malformed " + e.streamId() + ": " + e.getMessage());
            }
        }
    }

    /** Makes the next {@code split} octets visible; false when the input is exhausted. */
    private static boolean grow(ByteBuffer buffer, int split) {
        if (buffer.limit() == buffer.capacity()) {
            return false;
        }
        buffer.limit((int) Math.min(buffer.capacity(), (long) buffer.limit() + split));
        return true;
    }
}
