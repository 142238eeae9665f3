package dev.shuttle.mockserver;

import dev.shuttle.wire.Headers;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A small HTTP/1.1 server on blocking sockets, one virtual thread per connection, for what Shuttle's server will not
 * do on purpose: reset a connection (TCP RST) after N body bytes. It serves every script the same way (it shares
 * {@link Script}) and feeds the same ledger, counting bytes as they are handed to the socket. It is deliberately
 * plain: no pipelining beyond what a blocking loop gives, no {@code Expect: 100-continue}, heads up to 64 KiB,
 * request bodies with a Content-Length or chunked. Plaintext or TLS ({@link SSLSocket}); no HTTP/2.
 */
final class RawHttp1Engine implements AutoCloseable {
    private static final int MAX_HEAD = 64 * 1024;

    private final Ledger ledger;
    private final Dispatcher dispatcher;
    private final Script.Stall stall;
    private final Duration idleTimeout;
    private final SSLContext tls;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closing;

    RawHttp1Engine(InetAddress address, int port, SSLContext tls, Duration idleTimeout, Ledger ledger,
                   Dispatcher dispatcher, Script.Stall stall) throws IOException {
        this.ledger = ledger;
        this.dispatcher = dispatcher;
        this.stall = stall;
        this.idleTimeout = idleTimeout;
        this.tls = tls;
        this.listener = tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
        listener.bind(new InetSocketAddress(address, port), 128);
        Thread.ofVirtual().name("mockserver-raw-acceptor").start(this::acceptLoop);
    }

    int port() {
        return listener.getLocalPort();
    }

    InetSocketAddress localAddress() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!closing) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            long id = ids.incrementAndGet();
            sockets.add(socket);
            Thread.ofVirtual().name("mockserver-raw-" + id).start(() -> serve(socket, id));
        }
    }

    private void serve(Socket socket, long id) {
        LongAdder written = new LongAdder();
        LongAdder read = new LongAdder();
        ledger.opened(id, written::sum, read::sum);
        try (socket) {
            socket.setTcpNoDelay(true);
            if (socket instanceof SSLSocket ssl) {
                long startWall = System.currentTimeMillis();
                ssl.setSoTimeout(10_000);
                ssl.startHandshake();
                // A resumed session keeps the creation time of the session it resumes (JSSE, TLS 1.2 and 1.3).
                ledger.handshake(id, ssl.getSession().getCreationTime() < startWall);
            }
            InputStream in = new BufferedInputStream(new Counting(socket.getInputStream(), read));
            OutputStream out = new CountingOut(socket.getOutputStream(), written);
            while (!closing) {
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, idleTimeout.toMillis())));
                Head head = readHead(in);
                if (head == null) {
                    return; // the client closed, or the idle timeout passed
                }
                socket.setSoTimeout(30_000);
                byte[] body = readBody(in, head.headers);
                long sequence = ledger.requestStarted(id);
                int q = head.target.indexOf('?');
                RecordedRequest recorded = new RecordedRequest(head.method, head.target,
                        q < 0 ? head.target : head.target.substring(0, q), q < 0 ? null : head.target.substring(q + 1),
                        head.version, head.headers, body, id, sequence, tls != null);
                ledger.recorded(recorded);
                MockResponse script = MockServer.dispatchSafely(dispatcher, recorded);
                boolean close = script.connectionClose() || head.version.equals("HTTP/1.0")
                        || head.headers.containsToken("Connection", "close");
                Exchange exchange = new Exchange(socket, out, close, head.method.equals("HEAD"));
                Script.play(script, exchange, stall);
                if (exchange.aborted || close) {
                    return;
                }
            }
        } catch (BadRequest e) {
            try {
                byte[] answer = ("HTTP/1.1 400 Bad Request\r\nContent-Length: " + (e.getMessage().length() + 1)
                        + "\r\nConnection: close\r\n\r\n" + e.getMessage() + "\n").getBytes(StandardCharsets.ISO_8859_1);
                socket.getOutputStream().write(answer);
            } catch (IOException ignored) {
                // the client is gone
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the client went away, or the server is closing: the connection ends either way
        } finally {
            sockets.remove(socket);
            ledger.closed(id);
        }
    }

    private record Head(String method, String target, String version, Headers headers) {
    }

    private static final class BadRequest extends IOException {
        BadRequest(String message) {
            super(message);
        }
    }

    /** The next request head, or null when the connection ended (or idled out) before its first byte. */
    private static Head readHead(InputStream in) throws IOException {
        String requestLine;
        int total = 0;
        do {
            try {
                requestLine = line(in, true);
            } catch (SocketTimeoutException e) {
                return null;
            }
            if (requestLine == null) {
                return null;
            }
            total += requestLine.length() + 2;
        } while (requestLine.isEmpty() && total < 16);
        String[] parts = requestLine.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new BadRequest("bad request line: " + requestLine);
        }
        Headers.Builder headers = Headers.builder();
        while (true) {
            String field = line(in, false);
            if (field == null) {
                throw new BadRequest("head cut short");
            }
            total += field.length() + 2;
            if (total > MAX_HEAD) {
                throw new BadRequest("head over " + MAX_HEAD + " bytes");
            }
            if (field.isEmpty()) {
                break;
            }
            int colon = field.indexOf(':');
            if (colon <= 0) {
                throw new BadRequest("bad field line: " + field);
            }
            try {
                headers.add(field.substring(0, colon), field.substring(colon + 1).strip());
            } catch (IllegalArgumentException e) {
                throw new BadRequest(e.getMessage());
            }
        }
        return new Head(parts[0], parts[1], parts[2], headers.build());
    }

    /** One line without its CRLF (or bare LF); null at end of stream before any byte (when allowed). */
    private static String line(InputStream in, boolean eofAllowed) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (line.size() == 0 && eofAllowed) {
                    return null;
                }
                throw new BadRequest("connection ended mid-line");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            if (line.size() > MAX_HEAD) {
                throw new BadRequest("line over " + MAX_HEAD + " bytes");
            }
        }
    }

    private static byte[] readBody(InputStream in, Headers headers) throws IOException {
        String te = headers.first("Transfer-Encoding");
        if (te != null) {
            if (!te.strip().equalsIgnoreCase("chunked")) {
                throw new BadRequest("only chunked transfer coding is understood");
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = line(in, false);
                int semi = sizeLine.indexOf(';');
                long size;
                try {
                    size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).strip(), 16);
                } catch (NumberFormatException e) {
                    throw new BadRequest("bad chunk size: " + sizeLine);
                }
                if (size == 0) {
                    while (!line(in, false).isEmpty()) {
                        // trailers are dropped
                    }
                    return body.toByteArray();
                }
                if (body.size() + size > MockServer.MAX_REQUEST_BODY) {
                    throw new BadRequest("request body over " + MockServer.MAX_REQUEST_BODY + " bytes");
                }
                body.write(in.readNBytes((int) size));
                line(in, false);
            }
        }
        String cl = headers.first("Content-Length");
        if (cl == null) {
            return new byte[0];
        }
        long length;
        try {
            length = Long.parseLong(cl.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest("bad Content-Length: " + cl);
        }
        if (length < 0 || length > MockServer.MAX_REQUEST_BODY) {
            throw new BadRequest("Content-Length out of range: " + cl);
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length != length) {
            throw new BadRequest("request body cut short");
        }
        return body;
    }

    @Override
    public void close() {
        closing = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** Writes the head at the first flush, then the body in the response's framing; HEAD gets the head alone. */
    private static final class Exchange implements Script.Exchange {
        private final Socket socket;
        private final OutputStream out;
        private final boolean close;
        private final boolean head;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private MockResponse script;
        private boolean headSent;
        boolean aborted;

        Exchange(Socket socket, OutputStream out, boolean close, boolean head) {
            this.socket = socket;
            this.out = out;
            this.close = close;
            this.head = head;
        }

        @Override
        public void head(MockResponse script) {
            this.script = script;
        }

        /** Buffers up to 16 KiB, as a server's response buffer would, then writes through. */
        private final OutputStream body = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                pending.write(b, off, len);
                if (pending.size() >= 16 * 1024) {
                    writeBuffered();
                }
            }
        };

        @Override
        public OutputStream body() {
            return body;
        }

        @Override
        public void flush() throws IOException {
            writeBuffered();
            out.flush();
        }

        private void writeBuffered() throws IOException {
            boolean chunked = script.framing() == MockResponse.Framing.CHUNKED;
            if (!headSent) {
                headSent = true;
                StringBuilder h = new StringBuilder("HTTP/1.1 ").append(script.status()).append(' ')
                        .append(reason(script.status())).append("\r\n");
                var fields = script.headers();
                for (int i = 0; i < fields.size(); i += 2) {
                    h.append(fields.get(i)).append(": ").append(fields.get(i + 1)).append("\r\n");
                }
                h.append(chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + script.length()).append("\r\n");
                if (close) {
                    h.append("Connection: close\r\n");
                }
                out.write(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            }
            if (pending.size() == 0 || head) {
                pending.reset();
                return;
            }
            if (chunked) {
                out.write((Integer.toHexString(pending.size()) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                pending.writeTo(out);
                out.write(CRLF);
            } else {
                pending.writeTo(out);
            }
            pending.reset();
        }

        @Override
        public void end() throws IOException {
            writeBuffered();
            if (script.framing() == MockResponse.Framing.CHUNKED && !head) {
                out.write(LAST_CHUNK);
            }
            out.flush();
        }

        @Override
        public void abort(boolean reset) throws IOException {
            aborted = true;
            if (reset) {
                socket.setSoLinger(true, 0);
            }
            socket.close();
        }
    }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 204 -> "No Content";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }

    /** Counts bytes read from the socket. */
    private static final class Counting extends FilterInputStream {
        private final LongAdder count;

        Counting(InputStream in, LongAdder count) {
            super(in);
            this.count = count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count.increment();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count.add(n);
            }
            return n;
        }
    }

    /** Counts bytes once the socket accepted them (the write returned). */
    private static final class CountingOut extends FilterOutputStream {
        private final LongAdder count;

        CountingOut(OutputStream out, LongAdder count) {
            super(out);
            this.count = count;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count.increment();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count.add(len);
        }
    }
}
