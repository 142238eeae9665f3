package dev.shuttle.client.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Origin;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.ManualScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every address tried, and the other family 300 ms behind, with a connector the test gates and a scheduler it runs by
 * hand: the fallback's timing is staged, never slept for.
 */
class AddressRaceTest {
    private static final Origin ORIGIN = new Origin("https", "dual.test", 443);
    private static final InetAddress V6A = address("2001:db8::1");
    private static final InetAddress V6B = address("2001:db8::2");
    private static final InetAddress V4A = address("192.0.2.1");
    private static final InetAddress V4B = address("192.0.2.2");

    private final ManualScheduler scheduler = new ManualScheduler();
    private final List<String> events = new CopyOnWriteArrayList<>();
    /** Per address: what its connect does (absent: connects at once). */
    private final Map<InetAddress, Behaviour> behaviours = new ConcurrentHashMap<>();

    private interface Behaviour {
        SocketChannel connect() throws IOException;
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private final ClientTrace trace = new ClientTrace() {
        @Override
        public void connectStart(Origin origin, InetSocketAddress address) {
            events.add("start " + address.getAddress().getHostAddress());
        }

        @Override
        public void connectDone(Origin origin, InetSocketAddress address, IOException error) {
            events.add("done " + address.getAddress().getHostAddress() + (error == null ? ""
                    : error instanceof InterruptedIOException ? " given up" : " failed"));
        }
    };

    private final AddressRace race = new AddressRace((address, timeoutMillis) -> {
        Behaviour behaviour = behaviours.get(address.getAddress());
        return behaviour == null ? SocketChannel.open() : behaviour.connect();
    }, scheduler, (address, e) -> e);

    private static Behaviour refused() {
        return () -> {
            throw new ConnectException("Connection refused");
        };
    }

    /** Blocks until released or interrupted, as a connect to a black hole does. */
    private static Behaviour gated(CountDownLatch gate, CountDownLatch reached) {
        return () -> {
            reached.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new InterruptedIOException("connect interrupted");
            }
            return SocketChannel.open();
        };
    }

    private SocketChannel connect(List<InetAddress> addresses) throws IOException {
        return race.connect(ORIGIN, addresses, 443, () -> 1000, trace);
    }

    @Test
    void oneFamilyIsTriedInOrderOnTheCallersThread() throws Exception {
        behaviours.put(V4A, refused());
        try (SocketChannel channel = connect(List.of(V4A, V4B))) {
            assertThat(channel).isNotNull();
        }
        assertThat(events).containsExactly("start 192.0.2.1", "done 192.0.2.1 failed", "start 192.0.2.2",
                "done 192.0.2.2");
        assertThat(scheduler.pending()).isEmpty();
    }

    @Test
    void theOtherFamilyStartsAfterTheDelayAndWinsWhileTheFirstHangs() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch reached = new CountDownLatch(1);
        behaviours.put(V6A, gated(never, reached));
        CompletableFuture<SocketChannel> connecting = CompletableFuture.supplyAsync(() -> {
            try {
                return connect(List.of(V6A, V4A, V6B));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        assertThat(reached.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(scheduler.pending()).singleElement()
                .satisfies(task -> assertThat(task.delayNanos).isEqualTo(TimeUnit.MILLISECONDS.toNanos(300)));
        assertThat(connecting).isNotDone(); // nothing but the delay starts the IPv4 chain
        scheduler.runPending();
        try (SocketChannel channel = connecting.get(5, TimeUnit.SECONDS)) {
            assertThat(channel).isNotNull();
        }
        Await.until("the hanging attempt was given up", () -> events.contains("done 2001:db8:0:0:0:0:0:1 given up"));
        assertThat(events).containsSubsequence("start 2001:db8:0:0:0:0:0:1", "start 192.0.2.1", "done 192.0.2.1");
        assertThat(events).doesNotContain("start 2001:db8:0:0:0:0:0:2");
    }

    @Test
    void whenTheFirstFamilyFailsTheOtherStartsWithoutWaiting() throws Exception {
        behaviours.put(V6A, refused());
        behaviours.put(V6B, refused());
        try (SocketChannel channel = connect(List.of(V6A, V6B, V4A))) {
            assertThat(channel).isNotNull();
        }
        assertThat(events).containsExactly("start 2001:db8:0:0:0:0:0:1", "done 2001:db8:0:0:0:0:0:1 failed",
                "start 2001:db8:0:0:0:0:0:2", "done 2001:db8:0:0:0:0:0:2 failed", "start 192.0.2.1",
                "done 192.0.2.1");
        assertThat(scheduler.pending()).as("the delay's timer is cancelled").isEmpty();
    }

    @Test
    void aQuickFirstFamilyNeverStartsTheOther() throws Exception {
        try (SocketChannel channel = connect(List.of(V4A, V6A))) {
            assertThat(channel).isNotNull();
        }
        assertThat(events).containsExactly("start 192.0.2.1", "done 192.0.2.1");
        assertThat(scheduler.pending()).isEmpty();
    }

    @Test
    void whenEveryAddressFailsTheFirstFamilysErrorIsReported() {
        behaviours.put(V6A, () -> {
            throw new ConnectException("v6 refused");
        });
        behaviours.put(V4A, () -> {
            throw new ConnectException("v4 refused");
        });
        assertThatThrownBy(() -> connect(List.of(V6A, V4A))).isInstanceOf(ConnectException.class)
                .hasMessage("v6 refused");
    }
}
