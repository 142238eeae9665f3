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
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The park/unpark protocol over real loopback sockets, with a fake clock for deadlines and staged rounds. */
class ReadinessWatcherTest {
    /** Records how the watcher handed a parked channel back. */
    private static class Recorder implements ReadinessWatcher.Parkable {
        final SocketChannel channel;
        final CompletableFuture<String> outcome = new CompletableFuture<>();
        final AtomicInteger wakes = new AtomicInteger();

        Recorder(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public SocketChannel channel() {
            return channel;
        }

        @Override
        public void onWake(ReadinessWatcher.Wake reason) {
            wakes.incrementAndGet();
            outcome.complete(reason + " blocking=" + channel.isBlocking() + " registered=" + channel.isRegistered()
                    + " thread=" + Thread.currentThread().getName());
        }

        String await() throws Exception {
            return outcome.get(10, TimeUnit.SECONDS);
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final List<SocketChannel> channels = new ArrayList<>();
    private ServerSocketChannel listener;
    private ReadinessWatcher watcher;

    @BeforeEach
    void setUp() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        watcher = new ReadinessWatcher("test-watcher", clock::get);
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

    private static void send(SocketChannel channel, String text) throws IOException {
        channel.write(ByteBuffer.wrap(text.getBytes()));
    }

    @Test
    void readinessHandsTheChannelBackInBlockingModeAndDeregistered() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        assertThat(watcher.park(parked, 1_000_000)).isNotNull();
        send(pair[0], "x");
        assertThat(parked.await()).isEqualTo("READABLE blocking=true registered=false thread=test-watcher");
        ByteBuffer one = ByteBuffer.allocate(1);
        assertThat(pair[1].read(one)).isEqualTo(1); // a blocking read works at once
    }

    @Test
    void bytesThatArrivedBeforeParkingAreNotMissed() throws Exception {
        SocketChannel[] pair = pair();
        send(pair[0], "early");
        Recorder parked = new Recorder(pair[1]);
        watcher.park(parked, 1_000_000);
        assertThat(parked.await()).startsWith("READABLE");
    }

    @Test
    void peerCloseCountsAsReadable() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        watcher.park(parked, 1_000_000);
        pair[0].close();
        assertThat(parked.await()).startsWith("READABLE");
        assertThat(pair[1].read(ByteBuffer.allocate(1))).isEqualTo(-1);
    }

    @Test
    void deadlineHandsBackOnlyTheExpiredChannelReadyForAGoodbye() throws Exception {
        Recorder early = new Recorder(pair()[1]);
        Recorder late = new Recorder(pair()[1]);
        watcher.park(early, 1_000);
        watcher.park(late, 1_000_000_000_000L);
        clock.set(2_000);
        // Any park wakes the selector; the watcher then checks deadlines against the (fake) clock.
        Recorder wakeUp = new Recorder(pair()[1]);
        watcher.park(wakeUp, 1_000_000_000_000L);
        assertThat(early.await()).startsWith("DEADLINE blocking=true registered=false");
        assertThat(late.outcome).isNotDone();
        assertThat(wakeUp.outcome).isNotDone();
    }

    @Test
    void channelClosedBeforeRegistrationIsHandedBackAsFailed() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        pair[1].close();
        watcher.park(parked, 1_000_000);
        assertThat(parked.await()).startsWith("FAILED");
    }

    @Test
    void closeHandsEveryParkedChannelBackAndRefusesNewOnes() throws Exception {
        Recorder first = new Recorder(pair()[1]);
        Recorder second = new Recorder(pair()[1]);
        watcher.park(first, 1_000_000);
        watcher.park(second, 1_000_000);
        watcher.close();
        assertThat(first.await()).startsWith("SHUTDOWN blocking=true registered=false");
        assertThat(second.await()).startsWith("SHUTDOWN blocking=true registered=false");
        assertThat(watcher.park(new Recorder(pair()[1]), 1_000_000)).isNull();
    }

    @Test
    void unparkGivesTheChannelBackBlockingAndOnWakeIsNeverCalled() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        ReadinessWatcher.Ticket ticket = watcher.park(parked, 1_000_000);
        assertThat(watcher.unpark(ticket)).isTrue();
        assertThat(pair[1].isBlocking()).isTrue();
        assertThat(pair[1].isRegistered()).isFalse();
        send(pair[0], "x");
        ByteBuffer one = ByteBuffer.allocate(1);
        assertThat(pair[1].read(one)).isEqualTo(1);
        clock.set(2_000_000); // its deadline passes too: still no wake, the park is over
        watcher.park(new Recorder(pair()[1]), Long.MAX_VALUE);
        assertThat(ticket.isDone()).isTrue();
        Thread.sleep(50); // nothing should arrive; a wrong wake would show up within this
        assertThat(parked.wakes).hasValue(0);
    }

    @Test
    void unparkAfterReadinessSaysSoOnceTheHandBackIsComplete() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        ReadinessWatcher.Ticket ticket = watcher.park(parked, 1_000_000);
        send(pair[0], "x");
        parked.await();
        assertThat(watcher.unpark(ticket)).isFalse();
        assertThat(pair[1].isBlocking()).isTrue();
        assertThat(parked.wakes).hasValue(1);
    }

    @Test
    void unparkRacingReadinessHasExactlyOneWinner() throws Exception {
        SocketChannel[] pair = pair();
        ByteBuffer one = ByteBuffer.allocate(1);
        int unparked = 0;
        int woken = 0;
        for (int round = 0; round < 300; round++) {
            Recorder parked = new Recorder(pair[1]);
            ReadinessWatcher.Ticket ticket = watcher.park(parked, Long.MAX_VALUE);
            send(pair[0], "r");
            if (round % 3 != 0) {
                Thread.onSpinWait();
            }
            boolean mine = watcher.unpark(ticket);
            if (mine) {
                unparked++;
                assertThat(parked.wakes).hasValue(0);
            } else {
                woken++;
                assertThat(parked.await()).startsWith("READABLE blocking=true");
                assertThat(parked.wakes).hasValue(1);
            }
            assertThat(pair[1].isBlocking()).isTrue();
            one.clear();
            assertThat(pair[1].read(one)).isEqualTo(1);
            pair[1].configureBlocking(false);
        }
        assertThat(unparked + woken).isEqualTo(300);
    }

    @Test
    void readinessOfATicketBeingTakenBackDoesNotSpinTheWatcher() throws Exception {
        // Staged: while the watcher hands B back, A's owner claims A (UNPARKING) and A becomes readable; the flush
        // selects A. Unless that key is cancelled, every further selectNow() selects it again: the watcher spins.
        watcher.close();
        SocketChannel[] a = pair();
        SocketChannel[] b = pair();
        Recorder parkedA = new Recorder(a[1]);
        Recorder parkedB = new Recorder(b[1]);
        ReadinessWatcher.Ticket[] ticketA = new ReadinessWatcher.Ticket[1];
        AtomicInteger stage = new AtomicInteger();
        CompletableFuture<Boolean> unparked = new CompletableFuture<>();
        watcher = new ReadinessWatcher("racing-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void beforeFlush() {
                if (!stage.compareAndSet(0, 1)) {
                    return;
                }
                Thread.ofVirtual().start(() -> unparked.complete(watcher.unpark(ticketA[0])));
                while (ticketA[0].state() != ReadinessWatcher.Ticket.UNPARKING) {
                    Thread.onSpinWait();
                }
                try {
                    send(a[0], "x");
                    while (a[1].socket().getInputStream().available() == 0) {
                        Thread.onSpinWait();
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        watcher.start();
        ticketA[0] = watcher.park(parkedA, Long.MAX_VALUE);
        watcher.park(parkedB, Long.MAX_VALUE);
        send(b[0], "y");
        assertThat(parkedB.await()).startsWith("READABLE");
        assertThat(unparked.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(parkedA.wakes).hasValue(0);
        assertThat(a[1].isBlocking()).isTrue();
    }

    @Test
    void aChannelCanParkAndWakeManyTimes() throws Exception {
        SocketChannel[] pair = pair();
        ByteBuffer one = ByteBuffer.allocate(1);
        for (int round = 0; round < 200; round++) {
            Recorder parked = new Recorder(pair[1]);
            watcher.park(parked, 1_000_000);
            send(pair[0], "r");
            assertThat(parked.await()).startsWith("READABLE blocking=true");
            one.clear();
            assertThat(pair[1].read(one)).isEqualTo(1);
            pair[1].configureBlocking(false);
        }
    }

    @Test
    void concurrentParksAndWakeUpsAreNeverLost() throws Exception {
        // Parks racing with wake-ups: a wake-up consumed by the watcher's selectNow() must not leave a later park
        // waiting in the queue with no wakeup on its way (a bug this test caught once).
        int pairs = 40;
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
                        assertThat(watcher.park(parked, Long.MAX_VALUE)).isNotNull();
                        send(pair[0], "r");
                        assertThat(parked.await()).startsWith("READABLE blocking=true");
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

    @Test
    void aWakeupSwallowedByTheCancelFlushDoesNotStrandALaterPark() throws Exception {
        // Staged race: while the watcher resumes X, Y parks (its wakeup is swallowed by the flushing selectNow, but
        // Y itself is drained in the next round); then Z parks right after that round. Z's park must still wake the
        // selector, or Z waits forever.
        watcher.close();
        SocketChannel[] x = pair();
        SocketChannel[] y = pair();
        SocketChannel[] z = pair();
        Recorder parkedY = new Recorder(y[1]);
        Recorder parkedZ = new Recorder(z[1]);
        AtomicInteger stage = new AtomicInteger();
        watcher = new ReadinessWatcher("staged-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void beforeFlush() {
                if (stage.compareAndSet(0, 1)) {
                    watcher.park(parkedY, Long.MAX_VALUE);
                }
            }

            @Override
            public void afterRegister() {
                if (stage.compareAndSet(1, 2)) {
                    watcher.park(parkedZ, Long.MAX_VALUE);
                }
            }
        });
        watcher.start();
        Recorder parkedX = new Recorder(x[1]);
        watcher.park(parkedX, Long.MAX_VALUE);
        send(x[0], "x");
        assertThat(parkedX.await()).startsWith("READABLE");
        send(z[0], "z");
        assertThat(parkedZ.await()).startsWith("READABLE");
        send(y[0], "y");
        assertThat(parkedY.await()).startsWith("READABLE");
    }

    @Test
    void aCloseWhoseWakeupTheFlushSwallowedStillEndsTheWatcher() throws Exception {
        // Staged race: close() begins while the watcher is handing a channel back; the flushing selectNow() consumes
        // close's wakeup, and the next select() must not sleep forever.
        watcher.close();
        SocketChannel[] x = pair();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        AtomicInteger stage = new AtomicInteger();
        watcher = new ReadinessWatcher("closing-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void beforeFlush() {
                if (stage.compareAndSet(0, 1)) {
                    Thread.ofVirtual().start(() -> {
                        watcher.close();
                        closed.complete(null);
                    });
                    while (watcher.isRunning()) {
                        Thread.onSpinWait(); // until close() marked it closing (and woke the selector)
                    }
                }
            }
        });
        watcher.start();
        Recorder parked = new Recorder(x[1]);
        watcher.park(parked, Long.MAX_VALUE);
        send(x[0], "x");
        assertThat(parked.await()).startsWith("READABLE");
        closed.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aFailingWatcherHandsBackEveryChannelEvenThoseAlreadyChosenForReadiness() throws Exception {
        // Issue 13, item 5: a failure used to close pending and registered channels but forget the ready list, whose
        // descriptors (and the server's connection permits) leaked.
        watcher.close();
        SocketChannel[] ready = pair();
        SocketChannel[] registered = pair();
        Recorder readyOne = new Recorder(ready[1]);
        Recorder registeredOne = new Recorder(registered[1]);
        AtomicInteger rounds = new AtomicInteger();
        watcher = new ReadinessWatcher("failing-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void beforeFlush() {
                if (rounds.incrementAndGet() == 1) {
                    throw new IllegalStateException("staged failure");
                }
            }
        });
        watcher.start();
        watcher.park(registeredOne, Long.MAX_VALUE);
        watcher.park(readyOne, Long.MAX_VALUE);
        send(ready[0], "x");
        assertThat(readyOne.await()).startsWith("FAILED");
        assertThat(registeredOne.await()).startsWith("FAILED");
        assertThat(watcher.isRunning()).isFalse();
        assertThat(watcher.park(new Recorder(pair()[1]), Long.MAX_VALUE)).isNull();
    }

    @Test
    void anUnparkTakenInByARoundThatFailsIsStillServed() throws Exception {
        // Staged: the round after the one that registered the park takes in its owner's unpark and then fails. The
        // request must not be lost with the round, or unpark() waits for ever.
        watcher.close();
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        CompletableFuture<Void> registered = new CompletableFuture<>();
        AtomicReference<ReadinessWatcher.Ticket> unparking = new AtomicReference<>();
        watcher = new ReadinessWatcher("failing-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void afterRegister() {
                ReadinessWatcher.Ticket ticket = unparking.get();
                if (ticket != null && ticket.state() == ReadinessWatcher.Ticket.UNPARKING) {
                    throw new IllegalStateException("staged failure");
                }
                if (pair[1].isRegistered()) {
                    registered.complete(null);
                }
            }
        });
        watcher.start();
        ReadinessWatcher.Ticket ticket = watcher.park(parked, Long.MAX_VALUE);
        registered.get(10, TimeUnit.SECONDS);
        unparking.set(ticket);
        CompletableFuture<Boolean> unparked = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> unparked.complete(watcher.unpark(ticket)));
        assertThat(unparked.get(10, TimeUnit.SECONDS)).as("unpark() returned").isTrue();
        assertThat(parked.wakes).hasValue(0);
        assertThat(pair[1].isRegistered()).isFalse();
        assertThat(pair[1].isBlocking()).isTrue();
        assertThat(watcher.isRunning()).isFalse();
    }

    @Test
    void parksTakenInByARoundThatFailsBeforeRegisteringThemAreHandedBack() throws Exception {
        // Staged: one round takes in two parks and fails registering the first. Neither may be forgotten: each holds
        // a descriptor (and, on a server, a connection permit) until it is handed back.
        watcher.close();
        SocketChannel[] first = pair();
        Recorder failing = new Recorder(first[1]) {
            private final AtomicInteger calls = new AtomicInteger();

            @Override
            public SocketChannel channel() {
                if (calls.incrementAndGet() == 2) { // park() asks first, register() second
                    throw new AssertionError("staged failure");
                }
                return super.channel();
            }
        };
        Recorder behind = new Recorder(pair()[1]);
        AtomicInteger stage = new AtomicInteger();
        watcher = new ReadinessWatcher("failing-watcher", clock::get, new ReadinessWatcher.RoundHooks() {
            @Override
            public void afterRegister() {
                if (stage.compareAndSet(0, 1)) {
                    watcher.park(failing, Long.MAX_VALUE); // both taken in by the next round
                    watcher.park(behind, Long.MAX_VALUE);
                }
            }
        });
        watcher.start();
        Recorder trigger = new Recorder(pair()[1]);
        watcher.park(trigger, Long.MAX_VALUE);
        assertThat(behind.await()).startsWith("FAILED");
        assertThat(failing.await()).startsWith("FAILED");
        assertThat(trigger.await()).startsWith("FAILED");
        assertThat(watcher.isRunning()).isFalse();
    }

    @Test
    void unparkAfterTheWatcherClosedReturnsAtOnce() throws Exception {
        SocketChannel[] pair = pair();
        Recorder parked = new Recorder(pair[1]);
        ReadinessWatcher.Ticket ticket = watcher.park(parked, Long.MAX_VALUE);
        watcher.close();
        assertThat(parked.await()).startsWith("SHUTDOWN");
        assertThat(watcher.unpark(ticket)).isFalse();
    }

    @Test
    void selectTimeoutFollowsTheNextDeadline() {
        assertThat(WatcherLoop.selectTimeoutMillis(DeadlineQueue.NONE, 0)).isZero();
        assertThat(WatcherLoop.selectTimeoutMillis(TimeUnit.MILLISECONDS.toNanos(250), 0)).isEqualTo(250);
        assertThat(WatcherLoop.selectTimeoutMillis(1, 0)).isEqualTo(1); // never 0, which would block forever
    }
}
