package dev.shuttle.lab;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.lab.clients.ShuttleLabClient;
import dev.shuttle.lab.probe.ProbeErrors;
import dev.shuttle.lab.probe.ProbeTarget;
import dev.shuttle.lab.tls.ClientTrust;
import dev.shuttle.lab.tls.TlsDetails;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code shuttle get URL -v}: one request (or a few, to watch reuse) with Shuttle's client, the body on stdout and the
 * status line with the protocol that carried it ({@code HTTP/2 200}, {@code HTTP/1.1 200 OK}) on stderr. HTTP/2 comes
 * through ALPN on https, or with {@code --http2-prior-knowledge} on http (h2c). {@code -v} prints the exchange like
 * {@code curl -v} plus Shuttle's own events: the HTTP/2 stream id, whether the connection was new or reused and why,
 * connect and first-byte timings, what closing the body did to the connection, and over https what the TLS handshake
 * settled (protocol, cipher suite, ALPN, resumed or full, its time, the server's certificate).
 */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "GET a URL with Shuttle's client: the body on stdout, the status line with its protocol "
                + "(HTTP/2 200, HTTP/1.1 200 OK) on stderr; -v prints the exchange and Shuttle's events there.")
final class GetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "URL", description = "http:// or https:// URL.")
    String url;

    @Option(names = "--cacert", paramLabel = "FILE",
            description = "https: trust exactly the certificates in this PEM file (e.g. the one shuttle serve --tls "
                    + "prints) instead of the JDK's trust store.")
    Path caCert;

    @Option(names = {"-k", "--insecure"},
            description = "https: accept any certificate for any host name (nothing is verified). For tests only.")
    boolean insecure;

    @Option(names = {"-v", "--verbose"}, description = "Print the trace on stderr, like curl -v.")
    boolean verbose;

    @Option(names = "--http2-prior-knowledge",
            description = "http: speak HTTP/2 from the first byte (h2c), as curl's option of the same name; https "
                    + "offers h2 in ALPN anyway.")
    boolean http2PriorKnowledge;

    @Option(names = "--unread", description = "Close the body unread (status only), to watch the drain.")
    boolean unread;

    @Option(names = "--repeat", defaultValue = "1",
            description = "Send the request this many times on one client, to watch reuse (default 1).")
    int repeat;

    @Option(names = "--policy", defaultValue = "default",
            description = "Drain policy: default, bounded (Go 1.27) or none (Go 1.26).")
    String policy;

    @Option(names = "--timeout", defaultValue = "30s", converter = DurationConverter.class,
            description = "Connect, response-head and read timeout (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
        URI uri;
        ShuttleLabClient.Policy drain;
        try {
            uri = ProbeTarget.parse(url);
            drain = ShuttleLabClient.Policy.valueOf(policy.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            System.err.println("shuttle get: " + (e.getMessage().startsWith("No enum")
                    ? "unknown policy '" + policy + "': default, bounded or none" : e.getMessage()));
            return 2;
        }
        ClientTrust trust;
        try {
            trust = caCert == null && !insecure ? null : ClientTrust.fromOptions(caCert, insecure);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println("shuttle get: " + e.getMessage());
            return 2;
        }
        PrintStream err = System.err;
        TracePrinter trace = new TracePrinter(err, verbose,
                trust == null ? "the JDK's trust store" : trust.description());
        HttpClient.Builder builder = HttpClient.builder().http2PriorKnowledge(http2PriorKnowledge);
        if (trust != null) {
            builder.sslContext(trust.newContext()).hostnameVerification(trust.verifiesHostnames());
        }
        try (HttpClient client = builder
                .drainPolicy(drain.drainPolicy())
                .connectTimeout(timeout)
                .responseHeaderTimeout(timeout)
                .readTimeout(timeout)
                .trace(trace)
                .build()) {
            for (int i = 1; i <= Math.max(1, repeat); i++) {
                if (verbose && repeat > 1) {
                    err.println("* --- request " + i + " of " + repeat + " ---");
                }
                trace.startRequest(uri);
                try (Response response = client.send(Request.get(uri))) {
                    if (verbose) {
                        printResponse(err, response);
                        trace.printExchange(response);
                    } else {
                        err.println(statusLine(response));
                    }
                    if (!unread) {
                        try (InputStream body = response.body()) {
                            body.transferTo(System.out);
                        }
                        System.out.flush();
                    } else if (verbose) {
                        err.println("* closing the body unread (status " + response.status() + ")");
                    }
                } catch (IOException e) {
                    err.println("shuttle get: " + ProbeErrors.describe(e, uri)
                            + (trust == null ? ProbeErrors.tlsHint(e) : ""));
                    return 1;
                }
                trace.awaitBodyClosed();
            }
            if (verbose) {
                var stats = client.stats();
                err.printf("* client: %d requests, %d on reused connections, %d connections opened, %d bytes "
                        + "discarded by drains%n", stats.requests(), stats.reusedRequests(),
                        stats.connectionsOpened(), stats.bytesDiscarded());
                if (trace.tlsHandshakes() > 0) {
                    err.printf("* client: %d TLS handshakes, %d of them resumed%n", trace.tlsHandshakes(),
                            trace.tlsResumed());
                }
            }
        }
        return 0;
    }

    /** The request as sent, once the connection (and so the protocol) is known: like curl, HTTP/2 shows as HTTP/2. */
    private static void printRequest(PrintStream err, URI uri, HttpVersion protocol) {
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        err.println("> GET " + target + " " + protocol);
        err.println("> " + (protocol == HttpVersion.HTTP_2 ? ":authority" : "Host") + ": "
                + Origin.of(uri).authority());
        err.println(">");
    }

    /** {@code HTTP/2 200} or {@code HTTP/1.1 200 OK}: HTTP/2 has no reason phrase. */
    static String statusLine(Response response) {
        return response.version() + " " + response.status()
                + (response.reason().isEmpty() ? "" : " " + response.reason());
    }

    private static void printResponse(PrintStream err, Response response) {
        err.println("< " + statusLine(response));
        Headers headers = response.headers();
        for (int i = 0; i < headers.size(); i++) {
            err.println("< " + headers.name(i) + ": " + headers.value(i));
        }
        err.println("<");
    }

    /**
     * Prints Shuttle's trace events with their time since the request started. Events may arrive on other threads
     * (a background drain reports when it ends), so lines are printed whole and {@link #awaitBodyClosed} waits for
     * the body's verdict before the next request.
     */
    static final class TracePrinter implements ClientTrace {
        /** Upper bound on a background drain's report: the time cap (50 ms) plus slack. */
        private static final long DRAIN_REPORT_WAIT_MILLIS = 500;

        private final PrintStream out;
        private final boolean verbose;
        private final String trustDescription;
        private final Semaphore bodyClosed = new Semaphore(0);
        private final AtomicLong tlsHandshakes = new AtomicLong();
        private final AtomicLong tlsResumed = new AtomicLong();
        private volatile long startNanos; // written by the caller's thread before each request
        private volatile URI uri;
        private volatile long connectStartNanos;
        private volatile DrainOutcome lastOutcome; // written by whichever thread reports bodyClosed

        TracePrinter(PrintStream out, boolean verbose, String trustDescription) {
            this.out = out;
            this.verbose = verbose;
            this.trustDescription = trustDescription;
        }

        long tlsHandshakes() {
            return tlsHandshakes.get();
        }

        long tlsResumed() {
            return tlsResumed.get();
        }

        void startRequest(URI uri) {
            bodyClosed.drainPermits();
            this.uri = uri;
            startNanos = System.nanoTime();
        }

        /** After the response head: which stream of which connection carried it, and whether that was reused. */
        void printExchange(Response response) {
            ConnectionInfo c = response.connection();
            String connection = "connection #" + c.id() + " (" + (c.reused() ? "reused" : "new") + ")";
            print(response.streamId() > 0 ? "HTTP/2 stream " + response.streamId() + " on " + connection
                    : "HTTP/1.1 exchange on " + connection);
        }

        void awaitBodyClosed() throws InterruptedException {
            if (!bodyClosed.tryAcquire(DRAIN_REPORT_WAIT_MILLIS, TimeUnit.MILLISECONDS) && verbose) {
                print("no body-closed event within " + DRAIN_REPORT_WAIT_MILLIS + " ms");
            }
        }

        private String at() {
            return String.format(Locale.ROOT, "[%8.3f ms] ", (System.nanoTime() - startNanos) / 1e6);
        }

        private void print(String line) {
            if (verbose) {
                out.println("* " + at() + line);
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
                    + " " + c.protocol() + (c.tls() != null ? " (" + c.tls().protocol() + ")" : "") + ": " + why);
            if (verbose) {
                printRequest(out, uri, c.protocol());
            }
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
        public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
            lastOutcome = outcome;
            print("body closed: caller read " + bytesRead + " bytes; drain " + outcome + ", " + bytesDiscarded
                    + " bytes discarded: " + explain(outcome));
            bodyClosed.release();
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
}
