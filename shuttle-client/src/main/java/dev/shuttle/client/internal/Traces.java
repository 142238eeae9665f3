package dev.shuttle.client.internal;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.time.Duration;
import java.util.List;

/**
 * Combines the client-wide and per-request traces into one, and keeps a throwing trace from breaking the exchange:
 * its exception is logged and dropped, as {@link ClientTrace}'s contract promises.
 */
public final class Traces implements ClientTrace {
    private static final System.Logger LOG = System.getLogger(Traces.class.getName());

    private final ClientTrace first;
    private final ClientTrace second;

    private Traces(ClientTrace first, ClientTrace second) {
        this.first = first;
        this.second = second;
    }

    /**
     * The trace a call fires into. Without any trace (the common case) that is {@link ClientTrace#NONE} itself, whose
     * no-op methods cannot throw: a call then builds no wrapper, and its events cost a virtual call each.
     */
    public static ClientTrace combine(ClientTrace clientWide, ClientTrace perRequest) {
        if (clientWide == ClientTrace.NONE && perRequest == ClientTrace.NONE) {
            return ClientTrace.NONE;
        }
        return new Traces(clientWide, perRequest);
    }

    private interface Event {
        void fire(ClientTrace trace);
    }

    private void each(Event event) {
        fire(first, event);
        fire(second, event);
    }

    private static void fire(ClientTrace trace, Event event) {
        if (trace == ClientTrace.NONE) {
            return;
        }
        try {
            event.fire(trace);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "ClientTrace threw; ignored", e);
        }
    }

    @Override
    public void getConn(Origin origin) {
        each(t -> t.getConn(origin));
    }

    @Override
    public void handOff(HandOffDecision decision) {
        each(t -> t.handOff(decision));
    }

    @Override
    public void dialHeld(Origin origin, Duration hold, Duration readyIn) {
        each(t -> t.dialHeld(origin, hold, readyIn));
    }

    @Override
    public void dnsStart(String host) {
        each(t -> t.dnsStart(host));
    }

    @Override
    public void dnsDone(String host, List<InetAddress> addresses, IOException error) {
        each(t -> t.dnsDone(host, addresses, error));
    }

    @Override
    public void connectStart(Origin origin, InetSocketAddress address) {
        each(t -> t.connectStart(origin, address));
    }

    @Override
    public void connectDone(Origin origin, InetSocketAddress address, IOException error) {
        each(t -> t.connectDone(origin, address, error));
    }

    @Override
    public void tunnelStart(Origin origin, Proxy proxy) {
        each(t -> t.tunnelStart(origin, proxy));
    }

    @Override
    public void tunnelDone(Origin origin, Proxy proxy, IOException error) {
        each(t -> t.tunnelDone(origin, proxy, error));
    }

    @Override
    public void tlsHandshakeStart(Origin origin) {
        each(t -> t.tlsHandshakeStart(origin));
    }

    @Override
    public void tlsHandshakeDone(Origin origin, TlsInfo tls, IOException error) {
        each(t -> t.tlsHandshakeDone(origin, tls, error));
    }

    @Override
    public void gotConn(ConnectionInfo connection) {
        each(t -> t.gotConn(connection));
    }

    @Override
    public void wroteHeaders() {
        each(ClientTrace::wroteHeaders);
    }

    @Override
    public void wroteRequest(IOException error) {
        each(t -> t.wroteRequest(error));
    }

    @Override
    public void gotFirstResponseByte() {
        each(ClientTrace::gotFirstResponseByte);
    }

    @Override
    public void retrying(IOException cause) {
        each(t -> t.retrying(cause));
    }

    @Override
    public void followUp(int status, Request next) {
        each(t -> t.followUp(status, next));
    }

    @Override
    public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
        each(t -> t.bodyClosed(bytesRead, outcome, bytesDiscarded));
    }
}
