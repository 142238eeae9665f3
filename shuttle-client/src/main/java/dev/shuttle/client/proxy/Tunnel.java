package dev.shuttle.client.proxy;

import dev.shuttle.client.Origin;
import dev.shuttle.client.ProxyRefusedException;
import dev.shuttle.transport.Transport;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.BodyInputStream;
import dev.shuttle.wire.http1.Http1HeadParser;
import dev.shuttle.wire.http1.Http1HeadWriter;
import dev.shuttle.wire.http1.Http1Limits;
import dev.shuttle.wire.http1.Http1Source;
import dev.shuttle.wire.http1.RequestHead;
import dev.shuttle.wire.http1.ResponseHead;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * Opens a {@code CONNECT} tunnel through an HTTP proxy to an https origin (RFC 9110 9.3.6) on a connection to the
 * proxy, answering 407 challenges with the {@link TunnelAuthenticator}. A 2xx opens the tunnel: whatever follows is
 * the origin's, so bytes read past the head are handed back for the TLS handshake. A 407 whose body can be read
 * within {@link #MAX_CHALLENGE_BODY} on a connection the proxy keeps is answered on it; otherwise on a new
 * connection ({@link NeedsNewConnection}). Anything else fails the dial with the proxy's status.
 *
 * <p>Runs on the dialing thread, which owns the transport.
 */
public final class Tunnel {
    /** A 407's body read to keep its connection; a larger one costs a new connection instead. */
    static final int MAX_CHALLENGE_BODY = 64 * 1024;
    /** Answers tried for one tunnel: a Basic proxy needs one; more is a loop. */
    static final int MAX_ROUNDS = 4;

    private final Transport transport;
    private final Origin target;
    private final ProxyServer proxy;
    private final String userAgent;
    private final Http1Limits limits;
    private final int readTimeoutMillis;
    private final Source source;

    /** Thrown when the proxy will answer the next CONNECT only on a new connection. */
    public static final class NeedsNewConnection extends IOException {
        private final String authorization;
        private final int round;

        NeedsNewConnection(String authorization, int round) {
            super("the proxy closes the connection after its 407: the answer goes on a new one");
            this.authorization = authorization;
            this.round = round;
        }

        /** The {@code Proxy-Authorization} to send on the new connection. */
        public String authorization() {
            return authorization;
        }

        public int round() {
            return round;
        }
    }

    public Tunnel(Transport transport, Origin target, ProxyServer proxy, String userAgent, Http1Limits limits,
                  int readTimeoutMillis) {
        this.transport = transport;
        this.target = target;
        this.proxy = proxy;
        this.userAgent = userAgent;
        this.limits = limits;
        this.readTimeoutMillis = readTimeoutMillis;
        this.source = new Source(transport, readTimeoutMillis);
    }

    /**
     * Opens the tunnel.
     *
     * @param authorization the {@code Proxy-Authorization} to send first (the proxy URL's, or the answer carried over
     *                      from an earlier connection), or null
     * @param round         answers already tried (0 on a first connection)
     * @return the bytes read past the proxy's answer, the origin's first (usually none)
     * @throws NeedsNewConnection when the next answer must go on a new connection
     * @throws ProxyRefusedException when the proxy refused, for good
     */
    public ByteBuffer open(TunnelAuthenticator authenticator, String authorization, int round) throws IOException {
        String sent = authorization;
        for (int tries = round; ; tries++) {
            write(sent);
            Http1HeadParser parser = new Http1HeadParser(limits);
            ResponseHead head = readHead(parser);
            if (head.status() >= 200 && head.status() < 300) {
                return source.buffer.hasRemaining() ? source.buffer.slice() : null;
            }
            if (head.status() != 407) {
                throw refused(head);
            }
            String next = authenticator.authorize(target, proxy, head.status(), head.reason(), head.headers(), sent);
            if (next == null || next.equals(sent) || tries + 1 >= MAX_ROUNDS) {
                throw refused(head);
            }
            if (!skipBody(head)) {
                throw new NeedsNewConnection(next, tries + 1);
            }
            sent = next;
        }
    }

    private ProxyRefusedException refused(ResponseHead head) {
        return new ProxyRefusedException("proxy " + proxy + " refused CONNECT " + target.host() + ":" + target.port()
                + ": " + head.status() + (head.reason().isEmpty() ? "" : " " + head.reason())
                + (head.status() == 407 ? " (no proxy credentials, or they were refused)" : ""), head.status());
    }

    private void write(String authorization) throws IOException {
        // The authority form, always with its port (RFC 9110 9.3.6).
        String authority = (target.host().indexOf(':') >= 0 ? "[" + target.host() + "]" : target.host()) + ":"
                + target.port();
        Headers.Builder fields = Headers.builder().add("Host", authority);
        if (userAgent != null) {
            fields.add("User-Agent", userAgent);
        }
        if (authorization != null) {
            fields.add("Proxy-Authorization", authorization);
        }
        byte[] head = Http1HeadWriter.encode(new RequestHead("CONNECT", authority, HttpVersion.HTTP_1_1,
                fields.build()));
        transport.write(head, 0, head.length);
    }

    private ResponseHead readHead(Http1HeadParser parser) throws IOException {
        while (true) {
            ResponseHead head = parser.parseResponse(source.buffer);
            if (head != null && !head.isInterim()) {
                return head;
            }
            if (head == null && source.fill() < 0) {
                throw new ProtocolException("proxy " + proxy + " closed the connection "
                        + (parser.inProgress() ? "in the middle of its answer" : "without answering")
                        + " to CONNECT " + target.host() + ":" + target.port());
            }
        }
    }

    /** Reads the 407's body, if the connection is to carry the next CONNECT; false when it cannot. */
    private boolean skipBody(ResponseHead head) throws IOException {
        if (!head.keepAlive()) {
            return false;
        }
        BodyFraming framing = BodyFraming.ofResponse("CONNECT", head); // a 407 has its body
        if (framing instanceof BodyFraming.CloseDelimited
                || (framing instanceof BodyFraming.ContentLength length && length.length() > MAX_CHALLENGE_BODY)) {
            return false;
        }
        BodyDecoder decoder = framing.newDecoder(limits);
        long skipped = new BodyInputStream(source, decoder).skipBlocking(MAX_CHALLENGE_BODY + 1L);
        return decoder.isComplete() && skipped <= MAX_CHALLENGE_BODY && !source.buffer.hasRemaining();
    }

    /** The proxy's bytes, read with the read timeout; owned by the dialing thread. */
    private static final class Source implements Http1Source {
        private final Transport transport;
        private final int timeoutMillis;
        final ByteBuffer buffer = ByteBuffer.allocate(8 * 1024).flip();

        Source(Transport transport, int timeoutMillis) {
            this.transport = transport;
            this.timeoutMillis = timeoutMillis;
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public int fill() throws IOException {
            buffer.compact();
            try {
                if (!buffer.hasRemaining()) {
                    throw new ProtocolException("proxy answer larger than " + buffer.capacity() + " bytes unread");
                }
                return transport.read(buffer, timeoutMillis);
            } catch (SocketTimeoutException e) {
                SocketTimeoutException timeout = new SocketTimeoutException("the proxy did not answer CONNECT within "
                        + timeoutMillis + " ms");
                timeout.initCause(e);
                throw timeout;
            } finally {
                buffer.flip();
            }
        }

        @Override
        public int fillNow() throws IOException {
            buffer.compact();
            try {
                return transport.readNow(buffer);
            } finally {
                buffer.flip();
            }
        }
    }
}
