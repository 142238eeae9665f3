package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ReceivedBodyTest {
    private final ChunkPool pool = new ChunkPool();

    /** Whatever the frame sizes and read sizes, the bytes come out as they went in, and every chunk comes back. */
    @Property(tries = 200)
    void bytesComeOutInOrderWhateverTheFrameAndReadSizes(
            @ForAll @Size(min = 1, max = 20) java.util.List<@IntRange(min = 0, max = 17_000) Integer> frames,
            @ForAll @IntRange(min = 1, max = 9_000) int readSize) throws Exception {
        ReceivedBody body = new ReceivedBody();
        ChunkPool chunks = new ChunkPool();
        Random random = new Random(frames.hashCode());
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] read = new byte[readSize];
        for (int size : frames) {
            byte[] frame = new byte[size];
            random.nextBytes(frame);
            in.write(frame);
            body.append(1, frame, 0, size, chunks);
            if (random.nextBoolean()) {
                int n = body.take(read, 0, read.length, chunks);
                out.write(read, 0, n);
            }
        }
        for (int n; (n = body.take(read, 0, read.length, chunks)) > 0; ) {
            out.write(read, 0, n);
        }
        assertThat(out.toByteArray()).isEqualTo(in.toByteArray());
        assertThat(body.buffered()).isZero();
        assertThat(body.received()).isEqualTo(in.size());
        assertThat(chunks.free()).isLessThanOrEqualTo(ChunkPool.MAX_FREE);
    }

    @Test
    void skippingAndDiscardingGiveTheChunksBack() throws Exception {
        ReceivedBody body = new ReceivedBody();
        body.append(1, new byte[10_000], 0, 10_000, pool); // three chunks
        assertThat(body.skip(5_000, pool)).isEqualTo(5_000);
        assertThat(pool.free()).isEqualTo(1);
        assertThat(body.discard(pool)).isEqualTo(5_000);
        assertThat(pool.free()).isEqualTo(3);
        assertThat(body.buffered()).isZero();
        assertThat(body.take(new byte[10], 0, 10, pool)).isZero();
    }

    @Test
    void aBodyLongerThanItsContentLengthIsAStreamProtocolErrorAtTheByteThatPassesIt() throws Exception {
        ReceivedBody body = new ReceivedBody();
        body.declaredLength(5);
        body.append(3, new byte[5], 0, 5, pool);
        assertThatThrownBy(() -> body.append(3, new byte[1], 0, 1, pool))
                .isInstanceOfSatisfying(Http2Exception.class, e -> {
                    assertThat(e.isConnectionError()).isFalse();
                    assertThat(e.streamId()).isEqualTo(3);
                    assertThat(e.error()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
                });
    }

    @Test
    void aBodyShorterThanItsContentLengthFailsAtItsEnd() throws Exception {
        ReceivedBody body = new ReceivedBody();
        body.declaredLength(5);
        body.append(3, new byte[4], 0, 4, pool);
        assertThatThrownBy(() -> body.end(3)).isInstanceOf(Http2Exception.class).hasMessageContaining("4 bytes");
        ReceivedBody exact = new ReceivedBody();
        exact.declaredLength(4);
        exact.append(3, new byte[4], 0, 4, pool);
        exact.end(3);
        ReceivedBody undeclared = new ReceivedBody();
        undeclared.append(3, new byte[4], 0, 4, pool);
        undeclared.end(3);
    }

    @Test
    void aDeclaredLengthIsANonNegativeDecimalNumberOrAStreamError() throws Exception {
        // value, length (-2: a stream PROTOCOL_ERROR)
        Object[][] table = {{null, -1L}, {"0", 0L}, {"42", 42L}, {" 7 ", 7L}, {"007", 7L},
                {"999999999999999999", 999_999_999_999_999_999L}, {"", -2L}, {"-1", -2L}, {"+1", -2L}, {"1.0", -2L},
                {"0x10", -2L}, {"1,1", -2L}, {"9999999999999999999", -2L}, {"١٢", -2L}};
        for (Object[] row : table) {
            String value = (String) row[0];
            long expected = (long) row[1];
            if (expected == -2) {
                assertThatThrownBy(() -> ReceivedBody.parseDeclaredLength(5, value)).as("[%s]", value)
                        .isInstanceOfSatisfying(Http2Exception.class, e -> {
                            assertThat(e.isConnectionError()).isFalse();
                            assertThat(e.streamId()).isEqualTo(5);
                            assertThat(e.error()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
                        });
            } else {
                assertThat(ReceivedBody.parseDeclaredLength(5, value)).as("[%s]", value).isEqualTo(expected);
            }
        }
    }

    @Test
    void aPoolDropsWhatItIsGivenWhileReleased() {
        ChunkPool chunks = new ChunkPool();
        byte[] chunk = chunks.take();
        chunks.release();
        chunks.give(chunk);
        assertThat(chunks.free()).isZero();
        chunks.retain();
        chunks.give(chunk);
        assertThat(chunks.free()).isEqualTo(1);
        assertThat(chunks.take()).isSameAs(chunk);
    }
}
