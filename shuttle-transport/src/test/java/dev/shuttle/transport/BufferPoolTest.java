package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BufferPoolTest {
    @Test
    void releasedBuffersAreReusedCleared() {
        BufferPool pool = new BufferPool(64, 4);
        ByteBuffer buffer = pool.acquire();
        buffer.put((byte) 1).flip();
        pool.release(buffer);
        ByteBuffer again = pool.acquire();
        assertThat(again).isSameAs(buffer);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(64);
    }

    @Test
    void keepsAtMostItsBoundAndAllocatesBeyondIt() {
        BufferPool pool = new BufferPool(16, 2);
        ByteBuffer a = pool.acquire();
        ByteBuffer b = pool.acquire();
        ByteBuffer c = pool.acquire();
        assertThat(a).isNotSameAs(b).isNotSameAs(c);
        pool.release(a);
        pool.release(b);
        pool.release(c);
        assertThat(pool.pooled()).isEqualTo(2);
    }

    @Test
    void dropsBuffersOfAnotherSize() {
        BufferPool pool = new BufferPool(16, 2);
        pool.release(ByteBuffer.allocate(8));
        pool.release(null);
        assertThat(pool.pooled()).isZero();
    }

    @Test
    void countsAllocationsSoTestsCanTellRecyclingFromChurn() {
        BufferPool pool = new BufferPool(16, 2);
        for (int i = 0; i < 10; i++) {
            pool.release(pool.acquire());
        }
        assertThat(pool.allocations()).isEqualTo(1);
        ByteBuffer empty = pool.acquireEmpty();
        assertThat(empty.position()).isZero();
        assertThat(empty.limit()).isZero();
    }
}
