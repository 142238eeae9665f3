package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/** The int-keyed stream map against a HashMap, over the id patterns a connection sees. */
class StreamMapTest {
    private final ReentrantLock lock = new ReentrantLock();

    private Http2Stream stream(int id) {
        Http2Stream stream = new Http2Stream(lock.newCondition());
        stream.id = id;
        return stream;
    }

    @Test
    void behavesAsAHashMapOverRandomOpensAndClosesOfSequentialIds() {
        Random random = new Random(42);
        for (int run = 0; run < 20; run++) {
            StreamMap map = new StreamMap();
            Map<Integer, Http2Stream> expected = new HashMap<>();
            int nextId = 1;
            for (int step = 0; step < 20_000; step++) {
                int open = expected.size();
                if (open == 0 || (open < 300 && random.nextInt(100) < 52)) {
                    Http2Stream s = stream(nextId);
                    map.put(nextId, s);
                    expected.put(nextId, s);
                    nextId += 2;
                } else {
                    // close one of the open streams, old or new alike
                    int id = expected.keySet().stream().skip(random.nextInt(open)).findFirst().orElseThrow();
                    map.remove(id);
                    expected.remove(id);
                }
                if (step % 97 == 0) {
                    assertThat(map.size()).isEqualTo(expected.size());
                    for (int id = Math.max(1, nextId - 1_000); id < nextId + 10; id += 2) {
                        assertThat(map.get(id)).as("id %d at step %d", id, step).isSameAs(expected.get(id));
                    }
                    assertThat(map.snapshot()).containsExactlyInAnyOrderElementsOf(expected.values());
                }
            }
        }
    }

    @Test
    void collidingIdsSurviveRemovalsAnywhereInTheirRun() {
        // 16 slots: ids 1, 33, 65, 97 share home slot 0; 31 and 63 home slot 15, so 63 wraps around to slot 0
        StreamMap map = new StreamMap();
        int[] ids = {31, 63, 1, 33, 3, 65, 97, 5};
        for (int id : ids) {
            map.put(id, stream(id));
        }
        map.remove(31);
        map.remove(1);
        map.remove(65);
        for (int id : new int[] {63, 33, 3, 97, 5}) {
            assertThat(map.get(id)).as("id %d", id).isNotNull();
            assertThat(map.get(id).id).isEqualTo(id);
        }
        assertThat(map.get(31)).isNull();
        assertThat(map.get(1)).isNull();
        assertThat(map.get(65)).isNull();
        assertThat(map.size()).isEqualTo(5);
    }

    @Test
    void aTableThatGrewForABurstShrinksWhenItEmpties() {
        StreamMap map = new StreamMap();
        for (int id = 1; id < 2_000; id += 2) {
            map.put(id, stream(id));
        }
        assertThat(map.size()).isEqualTo(1_000);
        for (int id = 1; id < 2_000; id += 2) {
            map.remove(id);
        }
        assertThat(map.isEmpty()).isTrue();
        assertThat(map.toString()).startsWith("StreamMap[0 of 16");
        map.put(7, stream(7));
        assertThat(map.get(7).id).isEqualTo(7);
    }
}
