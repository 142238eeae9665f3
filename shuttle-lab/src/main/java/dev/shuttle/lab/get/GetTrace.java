package dev.shuttle.lab.get;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.lab.tls.TlsDetails;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code shuttle get -v}'s account of a call: Shuttle's trace events with their time since the call started, the
 * request as sent for each hop (a redirect or an authentication round is announced, as curl announces it), the proxy
 * and its tunnel, and what closing each body did to its connection. Events may arrive on other threads (a background
 * drain reports when it ends), so lines are printed whole, and {@link #awaitBodiesClosed} waits for every body's
 * verdict (the hops' and the last one's) before the next call.
 */
public final class GetTrace implements ClientTrace {
    /** Upper bound on a background drain's report: the time cap (50 ms) plus slack. */
    private static final long DRAIN_REPORT_WAIT_MILLIS = 500;

    private final PrintStream out;
    private final boolean verbose;
    private final String trustDescription;
    /** Fields the exchange adds that the request does not hold, shown with the request: curl shows them too. */
    private final boolean compressed;
    private final Semaphore bodyClosed = new Semaphore(0);
    private final AtomicInteger hops = new AtomicInteger();
    private final AtomicLong tlsHandshakes = new AtomicLong();
    private final AtomicLong tlsResumed = new AtomicLong();
    private volatile long startNanos; // written by the caller's thread before each call
    private volatile Request request; // the hop being sent: the call's, then each follow-up's
    private volatile long connectStartNanos;
    private volatile DrainOutcome lastOutcome; // written by whichever thread reports bodyClosed
    /** The last body's bytes on the wire: read by the caller and drained by the client. */
    private volatile long lastWireBytes;

    public GetTrace(PrintStream out, boolean verbose, String trustDescription, boolean compressed) {
        this.out = out;
        this.verbose = verbose;
        this.trustDescription = trustDescription;
        this.compressed = compressed;
    }

    public long tlsHandshakes() {
        return tlsHandshakes.get();
    }

    public long tlsResumed() {
        return tlsResumed.get();
    }

    /** The last closed body's bytes as they came (compressed, if they were). */
    public long lastWireBytes() {
        return lastWireBytes;
    }

    public void startCall(Request request) {
        bodyClosed.drainPermits();
        hops.set(0);
        this.request = request;
        startNanos = System.nanoTime();
    }

    /** Waits for the verdict of every body of the call: its hops' and its last one's. */
    public void awaitBodiesClosed() throws InterruptedException {
        if (!bodyClosed.tryAcquire(1 + hops.get(), DRAIN_REPORT_WAIT_MILLIS, TimeUnit.MILLISECONDS) && verbose) {
            print("no body-closed event within " + DRAIN_REPORT_WAIT_MILLIS + " ms");
        }
    }

    /** After the response head: which stream of which connection carried it, and whether that was reused. */
    public void printExchange(ConnectionInfo c, int streamId) {
        String connection = "connection #" + c.id() + " (" + (c.reused() ? "reused" : "new") + ")";
        print(streamId > 0 ? "HTTP/2 stream " + streamId + " on " + connection
                : "HTTP/1.1 exchange on " + connection);
    }

    /** A line of the trace, with its time, when verbose. */
    public void print(String line) {
        if (verbose) {
            out.println("* " + String.format(Locale.ROOT, "[%8.3f ms] ", (System.nanoTime() - startNanos) / 1e6)
                    + line);
        }
    }

    @Override
    public void getConn(Origin origin) {
        print("looking for a connection to " + origin);
    }

    @Override
    public void handOff(HandOffDecision decision) {
        print("no idle connection: " + switch (decision.kind()) {
            case DIAL -> "DIAL";
            case WAIT_FOR_DRAIN -> "WAIT for a draining connection";
            case WAIT_FOR_DRAIN_AND_DIAL_SPARE -> "WAIT for a draining connection and DIAL a spare";
            case WAIT_FOR_DRAIN_THEN_DIAL -> "WAIT briefly for a draining connection, then DIAL";
            case WAIT_FOR_SPARE -> "WAIT for the SPARE dial on its way";
        } + " (" + decision.reason() + ")");
    }

    @Override
    public void dialHeld(Origin origin, Duration hold, Duration readyIn) {
        print(String.format(Locale.ROOT, "connected, but new connections here answer only in %.3f ms: holding this"
                + " one up to %.3f ms for the draining connection first", readyIn.toNanos() / 1e6,
                hold.toNanos() / 1e6));
    }

    @Override
    public void dnsDone(String host, List<InetAddress> addresses, IOException error) {
        if (error != null) {
            print("resolving " + host + " failed: " + error.getMessage());
        } else if (!addresses.isEmpty() && !addresses.getFirst().getHostAddress().equals(host)) {
            print("resolved " + host + " to " + addresses.stream().map(InetAddress::getHostAddress).toList());
        }
    }

    @Override
    public void connectStart(Origin origin, InetSocketAddress address) {
        connectStartNanos = System.nanoTime();
        print("Trying " + hostPort(address) + "...");
    }

    @Override
    public void connectDone(Origin origin, InetSocketAddress address, IOException error) {
        double ms = (System.nanoTime() - connectStartNanos) / 1e6;
        print(error == null ? String.format(Locale.ROOT, "Connected to %s in %.3f ms", hostPort(address), ms)
                : "connect to " + hostPort(address) + " failed: " + error.getMessage());
    }

    @Override
    public void tunnelStart(Origin origin, Proxy proxy) {
        print("CONNECT " + origin.host() + ":" + origin.port() + " through proxy " + proxyName(proxy));
    }

    @Override
    public void tunnelDone(Origin origin, Proxy proxy, IOException error) {
        print(error == null ? "tunnel to " + origin.host() + ":" + origin.port() + " open"
                : "the proxy did not open the tunnel: " + error.getMessage());
    }

    @Override
    public void tlsHandshakeStart(Origin origin) {
        print("TLS handshake with " + origin.authority() + ", trusting " + trustDescription + "...");
    }

    @Override
    public void tlsHandshakeDone(Origin origin, TlsInfo tls, IOException error) {
        if (tls == null) {
            print("TLS handshake failed: " + (error == null ? "?" : error.getMessage()));
            return;
        }
        tlsHandshakes.incrementAndGet();
        if (tls.resumed()) {
            tlsResumed.incrementAndGet();
        }
        if (!verbose) {
            return;
        }
        print(String.format(Locale.ROOT, "TLS connection using %s / %s: %s in %.3f ms", tls.protocol(),
                tls.cipherSuite(), tls.resumed() ? "session RESUMED" : "full handshake",
                tls.handshakeTime().toNanos() / 1e6));
        print("ALPN: " + (tls.applicationProtocol() == null || tls.applicationProtocol().isEmpty()
                ? "none negotiated (HTTP/1.1 assumed)" : "server accepted " + tls.applicationProtocol()));
        for (String line : TlsDetails.certificateLines(tls)) {
            print(line);
        }
    }

    @Override
    public void gotConn(ConnectionInfo c) {
        String why;
        if (!c.reused() && c.wasIdle()) {
            why = String.format(Locale.ROOT, "NEW connection, dialed ahead as a spare and idle for %.3f ms",
                    c.idleTime().toNanos() / 1e6);
        } else if (!c.reused()) {
            why = "NEW connection, dialed for this request"
                    + (lastOutcome == null ? " (no connection to this origin yet)"
                    : lastOutcome.reused() ? " (none was idle)"
                    : " (the previous one was closed: " + lastOutcome + ")");
        } else if (c.afterDrain()) {
            why = "REUSED connection, handed over by a background drain as it finished";
        } else if (c.wasIdle()) {
            why = String.format(Locale.ROOT, "REUSED connection, idle in the pool for %.3f ms",
                    c.idleTime().toNanos() / 1e6);
        } else {
            why = "REUSED connection, handed over directly";
        }
        print("connection #" + c.id() + " " + hostPort(c.localAddress()) + " -> " + hostPort(c.remoteAddress())
                + (c.proxied() ? " (proxy " + proxyName(c.proxy()) + (c.origin().isSecure() ? ", tunnel" : "")
                + ")" : "") + " " + c.protocol() + (c.tls() != null ? " (" + c.tls().protocol() + ")" : "") + ": "
                + why);
        if (verbose) {
            printRequest(c);
        }
    }

    /** The request as sent, once the connection (and so the protocol) is known: like curl, HTTP/2 shows as HTTP/2. */
    private void printRequest(ConnectionInfo c) {
        Request sent = request;
        HttpVersion protocol = c.protocol();
        // Plain http through a proxy names its origin in the target (absolute form), as curl shows it.
        String target = c.proxied() && !c.origin().isSecure()
                ? sent.origin().scheme() + "://" + sent.origin().authority() + sent.target() : sent.target();
        out.println("> " + sent.method() + " " + target + " " + protocol);
        out.println("> " + (protocol == HttpVersion.HTTP_2 ? ":authority" : "Host") + ": "
                + sent.origin().authority());
        Headers headers = sent.headers();
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            boolean secret = name.equalsIgnoreCase("Authorization") || name.equalsIgnoreCase("Proxy-Authorization");
            out.println("> " + name + ": " + (secret ? headers.value(i).split(" ")[0] + " ..." : headers.value(i)));
        }
        if (compressed && !headers.contains("Accept-Encoding") && !sent.method().equals("HEAD")) {
            out.println("> Accept-Encoding: gzip, deflate");
        }
        if (sent.body().contentType() != null && !headers.contains("Content-Type")) {
            out.println("> Content-Type: " + sent.body().contentType());
        }
        if (sent.body().contentLength() > 0) {
            out.println("> Content-Length: " + sent.body().contentLength());
        }
        out.println(">");
    }

    @Override
    public void wroteRequest(IOException error) {
        print(error == null ? "request sent" : "sending the request failed: " + error.getMessage());
    }

    @Override
    public void gotFirstResponseByte() {
        print("first response byte (time to first byte)");
    }

    @Override
    public void retrying(IOException cause) {
        print("reused connection failed before any response byte (" + cause.getMessage()
                + "): retrying on a new connection");
    }

    @Override
    public void followUp(int status, Request next) {
        hops.incrementAndGet();
        request = next;
        print(status == 401 || status == 407
                ? "answering the " + status + " with credentials: the same request again"
                : "following the " + status + " to " + next.uri() + " (" + next.method() + ")");
    }

    @Override
    public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
        lastOutcome = outcome;
        lastWireBytes = bytesRead + bytesDiscarded;
        print("body closed: caller read " + bytesRead + " bytes; drain " + outcome + ", " + bytesDiscarded
                + " bytes discarded: " + explain(outcome));
        bodyClosed.release();
    }

    private static String proxyName(Proxy proxy) {
        return proxy.address() instanceof InetSocketAddress address
                ? "http://" + address.getHostString() + ":" + address.getPort() : String.valueOf(proxy);
    }

    private static String hostPort(InetSocketAddress address) {
        if (address == null) {
            return "?";
        }
        String host = address.getAddress() != null ? address.getAddress().getHostAddress()
                : address.getHostString();
        return host + ":" + address.getPort();
    }

    static String explain(DrainOutcome outcome) {
        return switch (outcome) {
            case COMPLETE -> "body read to its end, connection back in the pool";
            case COMPLETE_CLOSED -> "body read to its end; the connection could not be reused (Connection: close,"
                    + " HTTP/1.0, close-delimited body or bytes after the body): closed";
            case REUSED_INLINE -> "the rest had already arrived and was drained inside close(): pooled";
            case REUSED_ASYNC -> "drained in the background within the caps: pooled";
            case ABANDONED_BYTES -> "more than the byte cap was left: connection closed";
            case ABANDONED_TIME -> "the rest did not arrive within the time cap: connection closed";
            case ABANDONED_ERROR -> "draining failed: connection closed";
            case SKIPPED_CLOSE -> "the connection could not be reused (Connection: close or close-delimited)";
            case SKIPPED_LENGTH -> "Content-Length left more than the byte cap unread: closed, nothing read";
            case SKIPPED_POLICY -> "the drain policy is none: connection closed at once";
            case RESET_STREAM -> "HTTP/2: the stream was reset (RST_STREAM), the connection carries on";
        };
    }
}
