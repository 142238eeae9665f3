package dev.shuttle.mockserver;

import dev.shuttle.server.GoAwayEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The mock server's counts, fed by whichever engine serves the connections. Totals are exact for the server's whole
 * life; per-connection records are kept for the open connections and the last {@link MockServer#KEPT_CONNECTIONS}
 * closed ones, and as many GOAWAYs, so a long-running server stays small. One lock guards everything; nothing
 * blocks while holding it.
 */
final class Ledger {
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a connection closes, a request arrives or a GOAWAY is reported. */
    private final Condition changed = lock.newCondition();

    private final Map<Long, Entry> open = new HashMap<>();
    private final ArrayDeque<ConnectionRecord> closed = new ArrayDeque<>();
    private final ArrayDeque<RecordedRequest> untaken = new ArrayDeque<>();
    private final ArrayDeque<GoAwayEvent> goAways = new ArrayDeque<>();
    private long connections;
    private long requests;
    private long handshakes;
    private long resumed;
    private long bytesWrittenByClosed;
    private long goAwaysSent;
    private long goAwaysBeforeClientClosed;

    private static final class Entry {
        final long id;
        final LongSupplier written;
        final LongSupplier read;
        long requests;
        boolean tls;
        boolean resumed;

        Entry(long id, LongSupplier written, LongSupplier read) {
            this.id = id;
            this.written = written;
            this.read = read;
        }

        ConnectionRecord record(boolean stillOpen) {
            return new ConnectionRecord(id, requests, tls, resumed, written.getAsLong(), read.getAsLong(), stillOpen);
        }
    }

    void opened(long id, LongSupplier bytesWritten, LongSupplier bytesRead) {
        lock.lock();
        try {
            connections++;
            open.put(id, new Entry(id, bytesWritten, bytesRead));
        } finally {
            lock.unlock();
        }
    }

    void handshake(long id, boolean wasResumed) {
        lock.lock();
        try {
            handshakes++;
            if (wasResumed) {
                resumed++;
            }
            Entry entry = open.get(id);
            if (entry != null) {
                entry.tls = true;
                entry.resumed = wasResumed;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Counts a request on connection {@code id}; returns its sequence number there (1 for the first). */
    long requestStarted(long id) {
        lock.lock();
        try {
            requests++;
            Entry entry = open.get(id);
            return entry == null ? 1 : ++entry.requests;
        } finally {
            lock.unlock();
        }
    }

    void recorded(RecordedRequest request) {
        lock.lock();
        try {
            untaken.add(request);
            if (untaken.size() > MockServer.KEPT_CONNECTIONS) {
                untaken.removeFirst();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void closed(long id) {
        lock.lock();
        try {
            Entry entry = open.remove(id);
            if (entry == null) {
                return;
            }
            ConnectionRecord record = entry.record(false);
            bytesWrittenByClosed += record.bytesWritten();
            closed.add(record);
            if (closed.size() > MockServer.KEPT_CONNECTIONS) {
                closed.removeFirst();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The server sent a GOAWAY; one that answers the client's own GOAWAY is not "before the client closed". */
    void goAway(GoAwayEvent goAway) {
        lock.lock();
        try {
            goAwaysSent++;
            if (!goAway.clientFirst()) {
                goAwaysBeforeClientClosed++;
            }
            goAways.add(goAway);
            if (goAways.size() > MockServer.KEPT_CONNECTIONS) {
                goAways.removeFirst();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long connections() {
        lock.lock();
        try {
            return connections;
        } finally {
            lock.unlock();
        }
    }

    long requests() {
        lock.lock();
        try {
            return requests;
        } finally {
            lock.unlock();
        }
    }

    long tlsHandshakes() {
        lock.lock();
        try {
            return handshakes;
        } finally {
            lock.unlock();
        }
    }

    long tlsResumed() {
        lock.lock();
        try {
            return resumed;
        } finally {
            lock.unlock();
        }
    }

    long openConnections() {
        lock.lock();
        try {
            return open.size();
        } finally {
            lock.unlock();
        }
    }

    long bytesWritten() {
        lock.lock();
        try {
            long total = bytesWrittenByClosed;
            for (Entry entry : open.values()) {
                total += entry.written.getAsLong();
            }
            return total;
        } finally {
            lock.unlock();
        }
    }

    long goAwaysSent() {
        lock.lock();
        try {
            return goAwaysSent;
        } finally {
            lock.unlock();
        }
    }

    long goAwaysBeforeClientClosed() {
        lock.lock();
        try {
            return goAwaysBeforeClientClosed;
        } finally {
            lock.unlock();
        }
    }

    List<GoAwayEvent> goAways() {
        lock.lock();
        try {
            return List.copyOf(goAways);
        } finally {
            lock.unlock();
        }
    }

    ReuseStats snapshot() {
        lock.lock();
        try {
            List<ConnectionRecord> all = new ArrayList<>(closed);
            long total = bytesWrittenByClosed;
            for (Entry entry : open.values()) {
                ConnectionRecord record = entry.record(true);
                total += record.bytesWritten();
                all.add(record);
            }
            all.sort((a, b) -> Long.compare(a.id(), b.id()));
            return new ReuseStats(connections, requests, handshakes, resumed, total, open.size(), all);
        } finally {
            lock.unlock();
        }
    }

    boolean awaitOpenAtMost(long max, Duration timeout) throws InterruptedException {
        return awaitUntil(() -> open.size() <= max, timeout);
    }

    boolean awaitGoAwaysSent(long atLeast, Duration timeout) throws InterruptedException {
        return awaitUntil(() -> goAwaysSent >= atLeast, timeout);
    }

    /** Waits until {@code reached}, read under the lock, holds; false if it did not within {@code timeout}. */
    private boolean awaitUntil(BooleanSupplier reached, Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (!reached.getAsBoolean()) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The oldest request not yet taken, waiting up to {@code timeout}; null if none came. */
    RecordedRequest take(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (untaken.isEmpty()) {
                if (left <= 0) {
                    return null;
                }
                left = changed.awaitNanos(left);
            }
            return untaken.removeFirst();
        } finally {
            lock.unlock();
        }
    }
}
