package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The int-keyed stream table against a HashMap, over the id patterns a connection sees. */
class StreamTableTest {
    /** A stream that knows its id, so a lookup can be checked to return the right one. */
    private record Stream(int id) {
    }

    @Test
    void behavesAsAHashMapOverRandomOpensAndClosesOfSequentialIds() {
        Random random = new Random(42);
        for (int run = 0; run < 20; run++) {
            StreamTable<Stream> table = new StreamTable<>();
            Map<Integer, Stream> expected = new HashMap<>();
            int nextId = 1;
            for (int step = 0; step < 20_000; step++) {
                int open = expected.size();
                if (open == 0 || (open < 300 && random.nextInt(100) < 52)) {
                    Stream s = new Stream(nextId);
                    table.put(nextId, s);
                    expected.put(nextId, s);
                    nextId += 2;
                } else {
                    // close one of the open streams, old or new alike
                    int id = expected.keySet().stream().skip(random.nextInt(open)).findFirst().orElseThrow();
                    assertThat(table.remove(id)).isTrue();
                    expected.remove(id);
                }
                if (step % 97 == 0) {
                    assertThat(table.size()).isEqualTo(expected.size());
                    for (int id = Math.max(1, nextId - 1_000); id < nextId + 10; id += 2) {
                        assertThat(table.get(id)).as("id %d at step %d", id, step).isSameAs(expected.get(id));
                    }
                    assertThat(table.snapshot()).containsExactlyInAnyOrderElementsOf(expected.values());
                    assertThat(table.ids()).containsExactlyInAnyOrderElementsOf(expected.keySet());
                }
            }
        }
    }

    @Test
    void collidingIdsSurviveRemovalsAnywhereInTheirRun() {
        // 16 slots: ids 1, 33, 65, 97 share home slot 0; 31 and 63 home slot 15, so 63 wraps around to slot 0
        StreamTable<Stream> table = new StreamTable<>();
        int[] ids = {31, 63, 1, 33, 3, 65, 97, 5};
        for (int id : ids) {
            table.put(id, new Stream(id));
        }
        table.remove(31);
        table.remove(1);
        table.remove(65);
        for (int id : new int[] {63, 33, 3, 97, 5}) {
            assertThat(table.get(id)).as("id %d", id).isEqualTo(new Stream(id));
        }
        assertThat(table.get(31)).isNull();
        assertThat(table.get(1)).isNull();
        assertThat(table.get(65)).isNull();
        assertThat(table.remove(65)).isFalse();
        assertThat(table.size()).isEqualTo(5);
    }

    @Test
    void aTableThatGrewForABurstShrinksWhenItEmpties() {
        StreamTable<Stream> table = new StreamTable<>();
        for (int id = 1; id < 2_000; id += 2) {
            table.put(id, new Stream(id));
        }
        assertThat(table.size()).isEqualTo(1_000);
        for (int id = 1; id < 2_000; id += 2) {
            table.remove(id);
        }
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.toString()).startsWith("StreamTable[0 of 16");
        table.put(7, new Stream(7));
        assertThat(table.get(7)).isEqualTo(new Stream(7));
    }
}
