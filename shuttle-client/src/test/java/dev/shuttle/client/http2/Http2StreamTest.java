package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/** A stream's received bytes in pooled chunks: order, piecewise reads, and chunks going back to the pool. */
class Http2StreamTest {
    private final ChunkPool pool = new ChunkPool();
    private final Http2Stream stream = new Http2Stream(new ReentrantLock().newCondition());

    @Test
    void framesSpanningChunksAreReadBackInOrderInAnyPieces() {
        byte[] sent = pattern(3 * ChunkPool.CHUNK_BYTES + 1_000);
        int[] frames = {1, 4095, 1, 5000, 16, sent.length - 1 - 4095 - 1 - 5000 - 16};
        int at = 0;
        for (int frame : frames) {
            stream.append(sent, at, frame, pool);
            at += frame;
        }
        assertThat(stream.buffered).isEqualTo(sent.length);

        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] piece = new byte[777];
        for (int n; (n = stream.take(piece, 0, piece.length, pool)) > 0; ) {
            read.write(piece, 0, n);
        }
        assertThat(read.toByteArray()).isEqualTo(sent);
        assertThat(stream.buffered).isZero();
        assertThat(pool.free()).as("every chunk read to its end went back").isEqualTo(4);
    }

    @Test
    void aSmallBodyTakesOneChunkWhichGoesBackWhenRead() {
        stream.append(pattern(1024), 0, 1024, pool);
        byte[] into = new byte[4096];
        assertThat(stream.take(into, 0, into.length, pool)).isEqualTo(1024);
        assertThat(pool.free()).isEqualTo(1);

        stream.append(pattern(10), 0, 10, pool); // the next frame takes the recycled chunk
        assertThat(pool.free()).isZero();
        assertThat(stream.take(into, 5, 100, pool)).isEqualTo(10);
        assertThat(Arrays.copyOfRange(into, 5, 15)).isEqualTo(pattern(10));
    }

    @Test
    void skippingDropsBytesInOrderWithoutCopyingThem() {
        byte[] sent = pattern(10_000);
        stream.append(sent, 0, sent.length, pool);
        assertThat(stream.skip(5_000, pool)).isEqualTo(5_000);
        assertThat(pool.free()).isEqualTo(1);
        byte[] into = new byte[10];
        assertThat(stream.take(into, 0, 10, pool)).isEqualTo(10);
        assertThat(into).isEqualTo(Arrays.copyOfRange(sent, 5_000, 5_010));
        assertThat(stream.skip(Integer.MAX_VALUE, pool)).isEqualTo(4_990);
        assertThat(stream.buffered).isZero();
        assertThat(pool.free()).isEqualTo(3);
    }

    @Test
    void discardGivesEveryChunkBackAndCountsTheBytes() {
        stream.append(pattern(9_000), 0, 9_000, pool);
        byte[] into = new byte[100];
        stream.take(into, 0, 100, pool);
        assertThat(stream.discard(pool)).isEqualTo(8_900);
        assertThat(stream.buffered).isZero();
        assertThat(pool.free()).isEqualTo(3);
        assertThat(stream.take(into, 0, 100, pool)).isZero();
    }

    @Test
    void aReleasedPoolKeepsNothingUntilRetainedAgain() {
        stream.append(pattern(5_000), 0, 5_000, pool);
        pool.release(); // the connection parked with the body unread
        stream.discard(pool);
        assertThat(pool.free()).isZero();

        pool.retain();
        stream.append(pattern(5_000), 0, 5_000, pool);
        stream.discard(pool);
        assertThat(pool.free()).isEqualTo(2);
    }

    @Test
    void thePoolKeepsAtMostItsBound() {
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
