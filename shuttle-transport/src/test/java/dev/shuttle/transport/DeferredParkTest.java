package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deferred parks ({@link ReadinessWatcher#parkDeferred}) over real loopback sockets: which of them wake the selector,
 * and that none waits through a long wait. The clock stands still; no park here has a deadline.
 */
class DeferredParkTest {
    /** Records how the watcher handed a parked channel back. */
    private static final class Recorder implements ReadinessWatcher.Parkable {
        final SocketChannel channel;
        final Runnable atWake;
        final CompletableFuture<ReadinessWatcher.Wake> outcome = new CompletableFuture<>();

        Recorder(SocketChannel channel) {
            this(channel, () -> { });
        }

        /** {@code atWake} runs on the watcher thread as it hands the channel back. */
        Recorder(SocketChannel channel, Runnable atWake) {
            this.channel = channel;
            this.atWake = atWake;
        }

        @Override
        public SocketChannel channel() {
            return channel;
        }

        @Override
        public void onWake(ReadinessWatcher.Wake reason) {
            atWake.run();
            outcome.complete(reason);
        }

        ReadinessWatcher.Wake await() throws Exception {
            return outcome.get(10, TimeUnit.SECONDS);
        }
    }

    /** Counts the selector's wakeups, lets a test act once after a round's registrations, and marks a round's wait. */
    private static final class Hooks implements ReadinessWatcher.RoundHooks {
        final AtomicInteger wakeups = new AtomicInteger();
        final AtomicReference<Runnable> afterRegister = new AtomicReference<>();
        /** Watcher thread only: counted down as the watcher settles its next wait. */
        CountDownLatch nextWait = new CountDownLatch(0);

        @Override
        public void onWakeup() {
            wakeups.incrementAndGet();
        }

        @Override
        public void afterRegister() {
            Runnable action = afterRegister.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }

        @Override
        public void beforeWait() {
            nextWait.countDown();
        }
    }

    private final Hooks hooks = new Hooks();
    private final List<SocketChannel> channels = new ArrayList<>();
    private ServerSocketChannel listener;
    private ReadinessWatcher watcher;

    @BeforeEach
    void setUp() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        watcher = new ReadinessWatcher("deferring-watcher", () -> 0L, hooks);
        watcher.start();
    }

    @AfterEach
    void tearDown() throws IOException {
        watcher.close();
        for (SocketChannel channel : channels) {
            channel.close();
        }
        listener.close();
    }

    /** Returns {client, server side}; the server side is non-blocking, ready to park. */
    private SocketChannel[] pair() throws IOException {
        SocketChannel client = SocketChannel.open(listener.getLocalAddress());
        SocketChannel server = listener.accept();
        server.configureBlocking(false);
        channels.add(client);
        channels.add(server);
        return new SocketChannel[] {client, server};
    }

    private static void send(SocketChannel channel) throws IOException {
        channel.write(ByteBuffer.wrap(new byte[] {'x'}));
    }

    /** Parks a deferred park and hands it back readable; returns once the watcher settled its wait after that. */
    private void handBackDeferredParkReadable() throws Exception {
        SocketChannel[] pair = pair();
        CountDownLatch settled = new CountDownLatch(1);
        Recorder first = new Recorder(pair[1], () -> hooks.nextWait = settled);
        assertThat(watcher.parkDeferred(first, Long.MAX_VALUE)).isNotNull();
        send(pair[0]);
        assertThat(first.await()).isEqualTo(ReadinessWatcher.Wake.READABLE);
        assertThat(settled.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aDeferredParkWakesAWatcherWhoseWaitIsLong() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        int before = hooks.wakeups.get();
        assertThat(watcher.parkDeferred(parked, Long.MAX_VALUE)).isNotNull();
        assertThat(hooks.wakeups.get()).isEqualTo(before + 1);
        send(pair[0]);
        assertThat(parked.await()).isEqualTo(ReadinessWatcher.Wake.READABLE);
    }

    @Test
    void anEagerParkStillWakesAWatcherWhoseWaitIsShort() throws Exception {
        handBackDeferredParkReadable();
        int before = hooks.wakeups.get();
        SocketChannel[] pair = pair();
        assertThat(watcher.park(new Recorder(pair[1]), Long.MAX_VALUE)).isNotNull();
        assertThat(hooks.wakeups.get()).isEqualTo(before + 1);
    }

    @Test
    void aDeferredParkInAShortWaitCostsNoWakeupAndIsNotLeftBehindALongerOne() throws Exception {
        // Staged race: after a deferred park went back readable, the watcher waits short. A deferred park queued in
        // the round that wait ends in, once the round has taken its parks in, sees the wait still published as short
        // and does not wake the selector. The round hands nothing back, so the wait it settles is long: it must find
        // the queued park and keep the wait short, or the park is never registered and the bytes below never seen.
        handBackDeferredParkReadable();
        SocketChannel[] pair = pair();
        Recorder late = new Recorder(pair[1]);
        CountDownLatch queued = new CountDownLatch(1);
        int before = hooks.wakeups.get();
        hooks.afterRegister.set(() -> {
            watcher.parkDeferred(late, Long.MAX_VALUE);
            queued.countDown();
        });
        assertThat(queued.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(hooks.wakeups.get()).isEqualTo(before);
        send(pair[0]);
        assertThat(late.await()).isEqualTo(ReadinessWatcher.Wake.READABLE);
        assertThat(hooks.wakeups.get()).isEqualTo(before);
    }

    @Test
    void concurrentDeferredParksAreNeverLost() throws Exception {
        int pairs = 16;
        int rounds = 100;
        List<SocketChannel[]> sockets = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            sockets.add(pair());
        }
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> tasks = new ArrayList<>();
            for (SocketChannel[] pair : sockets) {
                tasks.add(executor.submit(() -> {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    for (int round = 0; round < rounds; round++) {
                        Recorder parked = new Recorder(pair[1]);
                        assertThat(watcher.parkDeferred(parked, Long.MAX_VALUE)).isNotNull();
                        send(pair[0]);
                        assertThat(parked.await()).isEqualTo(ReadinessWatcher.Wake.READABLE);
                        one.clear();
                        assertThat(pair[1].read(one)).isEqualTo(1);
                        pair[1].configureBlocking(false);
                    }
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get(60, TimeUnit.SECONDS);
            }
        }
    }
}
