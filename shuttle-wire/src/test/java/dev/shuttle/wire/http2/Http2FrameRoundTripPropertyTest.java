package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Write → read round trips of every frame type, including field blocks split over CONTINUATION frames: what the
 * reader returns equals what was written, whether the octets arrive whole, one at a time or in random pieces.
 */
class Http2FrameRoundTripPropertyTest {

    @Property(tries = 300)
    void framesSurviveWriteThenReadInAnySplit(@ForAll("sequences") List<Http2Frame> frames,
                                              @ForAll("splits") List<Integer> splits) throws Exception {
        int total = frames.stream().mapToInt(Http2FrameWriter::encodedLength).sum();
        ByteBuffer wire = ByteBuffer.allocate(total);
        for (Http2Frame frame : frames) {
            int before = wire.position();
            assertThat(Http2FrameWriter.write(wire, frame)).isEqualTo(wire.position() - before);
        }
        assertThat(wire.hasRemaining()).isFalse();
        byte[] octets = wire.array();

        assertThat(RawFrames.readWhole(new Http2FrameReader(), octets)).isEqualTo(frames);
        assertThat(readInPieces(octets, splits)).isEqualTo(frames);
    }

    @Property(tries = 50)
    void framesSurviveOneOctetAtATime(@ForAll("sequences") List<Http2Frame> frames) throws Exception {
        ByteBuffer wire = ByteBuffer.allocate(frames.stream().mapToInt(Http2FrameWriter::encodedLength).sum());
        frames.forEach(frame -> Http2FrameWriter.write(wire, frame));

        assertThat(RawFrames.readByteByByte(new Http2FrameReader(), wire.array())).isEqualTo(frames);
    }

    /** Feeds the octets in pieces through a small buffer that is compacted between reads, as a connection does. */
    private static List<Http2Frame> readInPieces(byte[] octets, List<Integer> splits) throws Http2Exception {
        Http2FrameReader reader = new Http2FrameReader();
        ByteBuffer buffer = ByteBuffer.allocate(reader.requiredBufferSize());
        List<Http2Frame> frames = new ArrayList<>();
        int offset = 0;
        int split = 0;
        buffer.flip();
        while (true) {
            for (Http2Frame frame = reader.read(buffer); frame != null; frame = reader.read(buffer)) {
                frames.add(RawFrames.detach(frame));
            }
            if (offset == octets.length) {
                assertThat(buffer.hasRemaining()).isFalse();
                return frames;
            }
            buffer.compact();
            int piece = Math.min(Math.min(splits.get(split++ % splits.size()), buffer.remaining()),
                    octets.length - offset);
            buffer.put(octets, offset, piece);
            offset += piece;
            buffer.flip();
        }
    }

    @Provide
    Arbitrary<List<Integer>> splits() {
        return Arbitraries.integers().between(1, 20_000).list().ofMinSize(1).ofMaxSize(20);
    }

    @Provide
    Arbitrary<List<Http2Frame>> sequences() {
        Arbitrary<List<Http2Frame>> single = single().map(List::of);
        return Arbitraries.oneOf(single, single, single, headerBlocks()).list().ofMaxSize(12)
                .map(units -> units.stream().flatMap(List::stream).toList());
    }

    private Arbitrary<Http2Frame> single() {
        return Arbitraries.oneOf(data(), headers(), priority(), rstStream(), settings(), ping(), goAway(),
                windowUpdate(), unknown());
    }

    private static Arbitrary<Integer> streamIds() {
        return Arbitraries.oneOf(Arbitraries.integers().between(1, 20), Arbitraries.integers().between(1,
                Integer.MAX_VALUE));
    }

    private static Arbitrary<ByteBuffer> payloads(int max) {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(max).map(ByteBuffer::wrap);
    }

    private static Arbitrary<Integer> paddings() {
        return Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(1, 256));
    }

    private Arbitrary<Http2Frame> data() {
        return Combinators.combine(streamIds(), payloads(2000), Arbitraries.of(true, false), paddings())
                .as(DataFrame::new);
    }

    private Arbitrary<Http2Frame> headers() {
        Arbitrary<Priority> priorities = Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.of(true, false), Arbitraries.integers().between(1, 256)).as(Priority::new).injectNull(0.5);
        return Combinators.combine(streamIds(), payloads(300), Arbitraries.of(true, false), priorities, paddings())
                .filter((id, fragment, end, priority, padding) -> priority == null || priority.dependency() != id)
                .as((id, fragment, end, priority, padding) -> new HeadersFrame(id, fragment, end, true, priority,
                        padding));
    }

    /** HEADERS or PUSH_PROMISE without END_HEADERS, then CONTINUATIONs on the same stream, the last one ending it. */
    private Arbitrary<List<Http2Frame>> headerBlocks() {
        return Combinators.combine(streamIds(), Arbitraries.integers().between(1, Integer.MAX_VALUE),
                        Arbitraries.of(true, false), payloads(100).list().ofMinSize(1).ofMaxSize(5), paddings())
                .as((id, promised, push, fragments, padding) -> {
                    List<Http2Frame> block = new ArrayList<>();
                    block.add(push
                            ? new PushPromiseFrame(id, promised, fragments.get(0), false, padding)
                            : new HeadersFrame(id, fragments.get(0), true, false, null, padding));
                    for (int i = 1; i <= fragments.size(); i++) {
                        ByteBuffer fragment = i < fragments.size() ? fragments.get(i) : ByteBuffer.allocate(0);
                        block.add(new ContinuationFrame(id, fragment, i == fragments.size()));
                    }
                    return block;
                });
    }

    private Arbitrary<Http2Frame> priority() {
        return Combinators.combine(streamIds(), Arbitraries.integers().between(0, Integer.MAX_VALUE),
                        Arbitraries.of(true, false), Arbitraries.integers().between(1, 256))
                .filter((id, dependency, exclusive, weight) -> !id.equals(dependency))
                .as((id, dependency, exclusive, weight) -> new PriorityFrame(id,
                        new Priority(dependency, exclusive, weight)));
    }

    private Arbitrary<Http2Frame> rstStream() {
        return Combinators.combine(streamIds(), Arbitraries.integers()).as(RstStreamFrame::new);
    }

    private Arbitrary<Http2Frame> settings() {
        Arbitrary<SettingsFrame.Setting> setting = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 0xffff_ffffL).map(v -> new SettingsFrame.Setting(1, v)),
                Arbitraries.of(0L, 1L).map(v -> new SettingsFrame.Setting(2, v)),
                Arbitraries.longs().between(0, 0xffff_ffffL).map(v -> new SettingsFrame.Setting(3, v)),
                Arbitraries.longs().between(0, Integer.MAX_VALUE).map(v -> new SettingsFrame.Setting(4, v)),
                Arbitraries.longs().between(16_384, 16_777_215).map(v -> new SettingsFrame.Setting(5, v)),
                Arbitraries.longs().between(0, 0xffff_ffffL).map(v -> new SettingsFrame.Setting(6, v)));
        return Arbitraries.oneOf(Arbitraries.just(SettingsFrame.ACK),
                setting.list().ofMaxSize(10).map(SettingsFrame::of));
    }

    private Arbitrary<Http2Frame> ping() {
        return Combinators.combine(Arbitraries.longs(), Arbitraries.of(true, false)).as(PingFrame::new);
    }

    private Arbitrary<Http2Frame> goAway() {
        return Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE), Arbitraries.integers(),
                payloads(100)).as(GoAwayFrame::new);
    }

    private Arbitrary<Http2Frame> windowUpdate() {
        return Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.integers().between(1, Integer.MAX_VALUE)).as(WindowUpdateFrame::new);
    }

    private Arbitrary<Http2Frame> unknown() {
        return Combinators.combine(Arbitraries.integers().between(10, 255), Arbitraries.integers().between(0, 255),
                Arbitraries.integers().between(0, Integer.MAX_VALUE), payloads(100)).as(UnknownFrame::new);
    }
}
