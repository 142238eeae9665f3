package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A body's received bytes in pooled chunks: order, piecewise reads, and chunks going back to the pool. */
class ReceivedBodyChunksTest {
    private final ChunkPool pool = new ChunkPool();
    private final ReceivedBody body = new ReceivedBody();

    @Test
    void framesSpanningChunksAreReadBackInOrderInAnyPieces() throws Exception {
        byte[] sent = pattern(3 * ChunkPool.CHUNK_BYTES + 1_000);
        int[] frames = {1, 4095, 1, 5000, 16, sent.length - 1 - 4095 - 1 - 5000 - 16};
        int at = 0;
        for (int frame : frames) {
            body.append(1, sent, at, frame, pool);
            at += frame;
        }
        assertThat(body.buffered()).isEqualTo(sent.length);

        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] piece = new byte[777];
        for (int n; (n = body.take(piece, 0, piece.length, pool)) > 0; ) {
            read.write(piece, 0, n);
        }
        assertThat(read.toByteArray()).isEqualTo(sent);
        assertThat(body.buffered()).isZero();
        assertThat(pool.free()).as("every chunk read to its end went back").isEqualTo(4);
    }

    @Test
    void aSmallBodyTakesOneChunkWhichGoesBackWhenRead() throws Exception {
        body.append(1, pattern(1024), 0, 1024, pool);
        byte[] into = new byte[4096];
        assertThat(body.take(into, 0, into.length, pool)).isEqualTo(1024);
        assertThat(pool.free()).isEqualTo(1);

        body.append(1, pattern(10), 0, 10, pool); // the next frame takes the recycled chunk
        assertThat(pool.free()).isZero();
        assertThat(body.take(into, 5, 100, pool)).isEqualTo(10);
        assertThat(Arrays.copyOfRange(into, 5, 15)).isEqualTo(pattern(10));
    }

    @Test
    void skippingDropsBytesInOrderWithoutCopyingThem() throws Exception {
        byte[] sent = pattern(10_000);
        body.append(1, sent, 0, sent.length, pool);
        assertThat(body.skip(5_000, pool)).isEqualTo(5_000);
        assertThat(pool.free()).isEqualTo(1);
        byte[] into = new byte[10];
        assertThat(body.take(into, 0, 10, pool)).isEqualTo(10);
        assertThat(into).isEqualTo(Arrays.copyOfRange(sent, 5_000, 5_010));
        assertThat(body.skip(Integer.MAX_VALUE, pool)).isEqualTo(4_990);
        assertThat(body.buffered()).isZero();
        assertThat(pool.free()).isEqualTo(3);
    }

    @Test
    void discardGivesEveryChunkBackAndCountsTheBytes() throws Exception {
        body.append(1, pattern(9_000), 0, 9_000, pool);
        byte[] into = new byte[100];
        body.take(into, 0, 100, pool);
        assertThat(body.discard(pool)).isEqualTo(8_900);
        assertThat(body.buffered()).isZero();
        assertThat(pool.free()).isEqualTo(3);
        assertThat(body.take(into, 0, 100, pool)).isZero();
    }

    @Test
    void aReleasedPoolKeepsNothingUntilRetainedAgain() throws Exception {
        body.append(1, pattern(5_000), 0, 5_000, pool);
        pool.release(); // the connection parked with the body unread
        body.discard(pool);
        assertThat(pool.free()).isZero();

        pool.retain();
        body.append(1, pattern(5_000), 0, 5_000, pool);
        body.discard(pool);
        assertThat(pool.free()).isEqualTo(2);
    }

    @Test
    void thePoolKeepsAtMostItsBound() throws Exception {
        for (int i = 0; i < ChunkPool.MAX_FREE + 10; i++) {
            pool.give(new byte[ChunkPool.CHUNK_BYTES]);
        }
        assertThat(pool.free()).isEqualTo(ChunkPool.MAX_FREE);
    }

    private static byte[] pattern(int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
