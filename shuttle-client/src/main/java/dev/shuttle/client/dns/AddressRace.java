package dev.shuttle.client.dns;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.TaskScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Connects to one of a host's addresses, trying every one in order, as Go's {@code dialParallel} does (RFC 8305's
 * "Happy Eyeballs"): the addresses of the first one's family are tried one after another (the primaries), and those
 * of the other family likewise, but starting {@link #FALLBACK_DELAY_NANOS} later (or at once when the primaries have
 * all failed). The first connection made wins; the other chain is interrupted (its connect gives up) and anything it
 * made is closed. A host of one family costs no thread: its chain runs on the caller's.
 *
 * <p>Each attempt is bounded by the {@link AttemptTimeout} (the connect timeout, shortened by the call's deadline).
 * The trace sees {@code connectStart}/{@code connectDone} for every attempt, on the thread that made it.
 */
public final class AddressRace {
    /** Go's {@code DefaultFallbackDelay}; RFC 8305 recommends 250 ms. */
    public static final long FALLBACK_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    /** One TCP connect; the connecting thread may be interrupted to give it up. */
    @FunctionalInterface
    public interface Connector {
        SocketChannel connect(InetSocketAddress address, int timeoutMillis) throws IOException;
    }

    /** The time one attempt may take, in milliseconds (at least 1), or a timeout when none is left. */
    @FunctionalInterface
    public interface AttemptTimeout {
        int millis() throws IOException;
    }

    /** Turns an attempt's failure into the one reported (naming the address, a timeout as such). */
    @FunctionalInterface
    public interface Failures {
        IOException explain(InetSocketAddress address, IOException failure);
    }

    private final Connector connector;
    private final TaskScheduler scheduler;
    private final Failures failures;

    public AddressRace(Connector connector, TaskScheduler scheduler, Failures failures) {
        this.connector = connector;
        this.scheduler = scheduler;
        this.failures = failures;
    }

    public SocketChannel connect(Origin origin, List<InetAddress> addresses, int port, AttemptTimeout timeout,
                                 ClientTrace trace) throws IOException {
        boolean firstIsV6 = addresses.getFirst() instanceof Inet6Address;
        List<InetSocketAddress> primaries = new ArrayList<>(addresses.size());
        List<InetSocketAddress> fallbacks = new ArrayList<>(0);
        for (InetAddress address : addresses) {
            ((address instanceof Inet6Address) == firstIsV6 ? primaries : fallbacks)
                    .add(new InetSocketAddress(address, port));
        }
        if (fallbacks.isEmpty()) {
            return serial(origin, primaries, timeout, trace);
        }
        return new Race(origin, primaries, fallbacks, timeout, trace).run();
    }

    /** Tries each address in turn until one connects; the last failure when none does. */
    private SocketChannel serial(Origin origin, List<InetSocketAddress> addresses, AttemptTimeout timeout,
                                 ClientTrace trace) throws IOException {
        IOException last = null;
        for (InetSocketAddress address : addresses) {
            int millis = timeout.millis(); // throws once the call's deadline has passed
            trace.connectStart(origin, address);
            try {
                SocketChannel channel = connector.connect(address, millis);
                trace.connectDone(origin, address, null);
                return channel;
            } catch (IOException e) {
                IOException failure = Thread.currentThread().isInterrupted()
                        ? new InterruptedIOException("connect to " + address + " given up: another address won")
                        : failures.explain(address, e);
                trace.connectDone(origin, address, failure);
                if (failure instanceof InterruptedIOException) {
                    throw failure;
                }
                last = failure;
            }
        }
        throw last;
    }

    /** The two chains of one connect, and which ended how. */
    private final class Race {
        private final Origin origin;
        private final List<InetSocketAddress> primaries;
        private final List<InetSocketAddress> fallbacks;
        private final AttemptTimeout timeout;
        private final ClientTrace trace;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition ended = lock.newCondition();
        /** Guarded by lock. */
        private SocketChannel winner;
        /** Guarded by lock: each chain's failure, once it failed. */
        private IOException primaryFailure;
        private IOException fallbackFailure;
        /** Guarded by lock: the fallback chain's thread, once started; null before. */
        private Thread fallback;
        private Thread primary;
        /** Guarded by lock: the race is decided (a winner, both failed, or given up): nothing starts any more. */
        private boolean decided;

        Race(Origin origin, List<InetSocketAddress> primaries, List<InetSocketAddress> fallbacks,
             AttemptTimeout timeout, ClientTrace trace) {
            this.origin = origin;
            this.primaries = primaries;
            this.fallbacks = fallbacks;
            this.timeout = timeout;
            this.trace = trace;
        }

        SocketChannel run() throws IOException {
            TaskScheduler.Scheduled timer;
            lock.lock();
            try {
                timer = scheduler.schedule(FALLBACK_DELAY_NANOS, this::startFallback);
                primary = Thread.ofVirtual().name("shuttle-connect-" + origin).start(() -> chain(true));
            } finally {
                lock.unlock();
            }
            lock.lock();
            try {
                while (winner == null && !(primaryFailure != null && fallbackFailure != null)) {
                    ended.await();
                }
                decided = true;
                if (winner != null) {
                    interruptLosers();
                    return winner;
                }
                throw primaryFailure;
            } catch (InterruptedException e) {
                decided = true;
                interruptLosers();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while connecting to " + origin);
            } finally {
                lock.unlock();
                timer.cancel();
            }
        }

        private void startFallback() {
            lock.lock();
            try {
                if (fallback == null && !decided) {
                    fallback = Thread.ofVirtual().name("shuttle-connect-fallback-" + origin).start(() -> chain(false));
                }
            } finally {
                lock.unlock();
            }
        }

        private void chain(boolean isPrimary) {
            SocketChannel channel = null;
            IOException failure = null;
            try {
                channel = serial(origin, isPrimary ? primaries : fallbacks, timeout, trace);
            } catch (IOException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new IOException(e);
            }
            boolean startFallbackNow = false;
            lock.lock();
            try {
                if (channel != null) {
                    if (winner == null && !decided) {
                        winner = channel;
                        channel = null;
                    }
                } else if (isPrimary) {
                    primaryFailure = failure;
                    startFallbackNow = fallback == null;
                } else {
                    fallbackFailure = failure;
                }
                ended.signalAll();
            } finally {
                lock.unlock();
            }
            if (channel != null) {
                close(channel); // lost by a hair: the other chain won
            }
            if (startFallbackNow) {
                startFallback(); // every primary failed: no reason to wait for the delay
            }
        }

        private void interruptLosers() {
            assert lock.isHeldByCurrentThread();
            if (primary != null) {
                primary.interrupt();
            }
            if (fallback != null) {
                fallback.interrupt();
            }
        }

        private static void close(SocketChannel channel) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // it is nobody's
            }
        }
    }
}
