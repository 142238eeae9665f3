package dev.shuttle.lab;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Proxies;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.lab.clients.ShuttleLabClient;
import dev.shuttle.lab.get.CurlRequest;
import dev.shuttle.lab.get.GetTrace;
import dev.shuttle.lab.probe.ProbeErrors;
import dev.shuttle.lab.probe.ProbeTarget;
import dev.shuttle.lab.tls.ClientTrust;
import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code shuttle get URL -v}: one request (or a few, to watch reuse) with Shuttle's client, speaking curl's flags: the
 * body on stdout (or {@code -o FILE}), the status line with the protocol that carried it ({@code HTTP/2 200},
 * {@code HTTP/1.1 200 OK}) on stderr. As curl: redirects are followed only with {@code -L} (else the 3xx is printed
 * as it is), compression is asked for only with {@code --compressed}, proxies come from {@code -x} or the
 * environment ({@code HTTP_PROXY}, {@code HTTPS_PROXY}, {@code NO_PROXY}). {@code -v} prints the exchange like
 * {@code curl -v} plus Shuttle's own events: each hop, the proxy and its tunnel, the HTTP/2 stream id, whether the
 * connection was new or reused and why, timings, what closing each body did to its connection, the encoding and the
 * bytes on the wire against those decoded, and over https what the TLS handshake settled.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Send a request with Shuttle's client, with curl's flags: the body on stdout (or -o FILE), the "
                + "status line with its protocol on stderr; -v prints the exchange and Shuttle's events there.")
final class GetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "URL", description = "http:// or https:// URL.")
    String url;

    @Option(names = {"-X", "--request"}, paramLabel = "METHOD",
            description = "The method (default GET, or POST with -d, --data-binary or -F).")
    String method;

    @Option(names = {"-H", "--header"}, paramLabel = "\"Name: value\"", description = "Add a header (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = {"-d", "--data"}, paramLabel = "DATA",
            description = "POST DATA as application/x-www-form-urlencoded; @FILE reads it from FILE without its "
                    + "line breaks; several are joined with &.")
    List<String> data = new ArrayList<>();

    @Option(names = "--data-binary", paramLabel = "DATA", description = "As -d, but @FILE is sent as it is.")
    List<String> dataBinary = new ArrayList<>();

    @Option(names = {"-F", "--form"}, paramLabel = "NAME=VALUE",
            description = "A multipart/form-data field; NAME=@FILE[;type=TYPE] streams a file (repeatable).")
    List<String> form = new ArrayList<>();

    @Option(names = {"-u", "--user"}, paramLabel = "USER:PASSWORD",
            description = "Basic credentials, sent up front, to the URL's origin only.")
    String user;

    @Option(names = {"-L", "--location"},
            description = "Follow redirects (up to 50, as curl); without it a 3xx is printed as it is.")
    boolean location;

    @Option(names = "--compressed",
            description = "Ask for gzip or deflate and decode the body; -v shows the bytes on the wire and decoded.")
    boolean compressed;

    @Option(names = {"-x", "--proxy"}, paramLabel = "[http://][USER:PASSWORD@]HOST[:PORT]",
            description = "Send through this HTTP proxy (https through a CONNECT tunnel); default: HTTP_PROXY, "
                    + "HTTPS_PROXY and NO_PROXY from the environment.")
    String proxy;

    @Option(names = "--noproxy", paramLabel = "LIST",
            description = "Hosts that bypass the proxy, NO_PROXY's syntax (with -x).")
    String noProxy;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the body to FILE.")
    Path output;

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
        Request request;
        ClientTrust trust;
        HttpClient.Builder builder = HttpClient.builder();
        try {
            uri = ProbeTarget.parse(url);
            drain = ShuttleLabClient.Policy.valueOf(policy.trim().toUpperCase(Locale.ROOT));
            request = CurlRequest.build(uri, method, headers, data, dataBinary, form, user);
            trust = caCert == null && !insecure ? null : ClientTrust.fromOptions(caCert, insecure);
            if (proxy != null) {
                builder.proxy(Proxies.of(proxy, noProxy));
            }
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println("shuttle get: " + (e.getMessage() != null && e.getMessage().startsWith("No enum")
                    ? "unknown policy '" + policy + "': default, bounded or none" : e.getMessage()));
            return 2;
        }
        PrintStream err = System.err;
        GetTrace trace = new GetTrace(err, verbose, trust == null ? "the JDK's trust store" : trust.description(),
                compressed);
        builder.http2PriorKnowledge(http2PriorKnowledge)
                .compression(compressed)
                .redirectPolicy(location ? RedirectPolicy.builder().maxRedirects(50).httpsToHttp(true).build()
                        : RedirectPolicy.none());
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
                trace.startCall(request);
                try (Response response = client.send(request)) {
                    if (verbose) {
                        printResponse(err, response);
                        trace.printExchange(response.connection(), response.streamId());
                    } else {
                        err.println(statusLine(response));
                    }
                    if (!unread) {
                        long decoded = writeBody(response);
                        trace.awaitBodiesClosed();
                        printBodySummary(trace, response, decoded);
                    } else {
                        trace.print("closing the body unread (status " + response.status() + ")");
                    }
                } catch (IOException e) {
                    err.println("shuttle get: " + ProbeErrors.describe(e, uri)
                            + (trust == null ? ProbeErrors.tlsHint(e) : ""));
                    return 1;
                }
                if (unread) {
                    trace.awaitBodiesClosed();
                }
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

    /** Copies the body to stdout or the {@code -o} file; returns its (decoded) length. */
    private long writeBody(Response response) throws IOException {
        long written;
        try (InputStream body = response.body()) {
            if (output != null) {
                try (OutputStream file = Files.newOutputStream(output)) {
                    written = body.transferTo(file);
                }
            } else {
                written = body.transferTo(System.out);
                System.out.flush();
            }
        }
        return written;
    }

    /** What -v says of the body once read: its size, and with a decoded encoding, its size on the wire. */
    private void printBodySummary(GetTrace trace, Response response, long decoded) {
        String where = output == null ? "" : ", written to " + output;
        if (response.decodedEncoding() != null) {
            long wire = trace.lastWireBytes();
            trace.print(String.format(Locale.ROOT, "body: %d bytes decoded from %s, %d bytes on the wire (%.1f:1)%s",
                    decoded, response.decodedEncoding(), wire, wire == 0 ? 0.0 : (double) decoded / wire, where));
        } else {
            trace.print("body: " + decoded + " bytes" + where);
        }
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
        if (response.decodedEncoding() != null) {
            err.println("< (Content-Encoding: " + response.decodedEncoding() + " decoded by the client, with its "
                    + "Content-Length)");
        }
        err.println("<");
    }
}
