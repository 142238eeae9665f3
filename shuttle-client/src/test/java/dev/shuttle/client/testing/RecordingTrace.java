package dev.shuttle.client.testing;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.DrainOutcome;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Records trace events for assertions. Thread-safe: drains report from their own threads. */
public final class RecordingTrace implements ClientTrace {
    public record Closed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
    }

    public final List<String> events = new CopyOnWriteArrayList<>();
    public final List<ConnectionInfo> connections = new CopyOnWriteArrayList<>();
    public final List<Closed> closed = new CopyOnWriteArrayList<>();
    public final AtomicLong retries = new AtomicLong();
    /** Why attempts were retried, in order. */
    public final List<IOException> retryCauses = new CopyOnWriteArrayList<>();

    @Override
    public void getConn(dev.shuttle.client.Origin origin) {
        events.add("getConn");
    }

    @Override
    public void dialHeld(dev.shuttle.client.Origin origin, java.time.Duration hold, java.time.Duration readyIn) {
        events.add("dialHeld " + hold.toNanos() + " of " + readyIn.toNanos());
    }

    @Override
    public void connectStart(dev.shuttle.client.Origin origin, java.net.InetSocketAddress address) {
        events.add("connectStart");
    }

    @Override
    public void connectDone(dev.shuttle.client.Origin origin, java.net.InetSocketAddress address, IOException error) {
        events.add(error == null ? "connectDone" : "connectFailed");
    }

    @Override
    public void gotConn(ConnectionInfo connection) {
        connections.add(connection);
        events.add("gotConn");
    }

    @Override
    public void wroteHeaders() {
        events.add("wroteHeaders");
    }

    @Override
    public void wroteRequest(IOException error) {
        events.add(error == null ? "wroteRequest" : "writeFailed");
    }

    @Override
    public void gotFirstResponseByte() {
        events.add("gotFirstResponseByte");
    }

    @Override
    public void retrying(IOException cause) {
        retries.incrementAndGet();
        retryCauses.add(cause);
        events.add("retrying");
    }

    @Override
    public void followUp(int status, dev.shuttle.client.Request next) {
        events.add("followUp " + status + " " + next.uri());
    }

    @Override
    public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
        closed.add(new Closed(bytesRead, outcome, bytesDiscarded));
        events.add("bodyClosed");
    }

    public long reusedCount() {
        return connections.stream().filter(ConnectionInfo::reused).count();
    }

    public long count(DrainOutcome outcome) {
        return closed.stream().filter(c -> c.outcome() == outcome).count();
    }

    public long discarded() {
        return closed.stream().mapToLong(Closed::bytesDiscarded).sum();
    }
}
