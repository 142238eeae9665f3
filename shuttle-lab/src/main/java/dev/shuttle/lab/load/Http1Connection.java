package dev.shuttle.lab.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 keep-alive: one request at a time, responses framed by Content-Length (every lab server sends one). */
final class Http1Connection implements LabConnection {
    private static final int MAX_HEAD = 8192;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] request;
    /** Send time of the outstanding request, 0 when none. Owned by the connection's thread. */
    private long sentNanos;

    Http1Connection(Socket socket, String authority) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 1024);
        this.out = socket.getOutputStream();
        this.request = ("GET / HTTP/1.1\r\nHost: " + authority + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public int maxInFlight() {
        return 1;
    }

    @Override
    public void send() throws IOException {
        if (sentNanos != 0) {
            throw new IllegalStateException("a request is already outstanding");
        }
        sentNanos = System.nanoTime();
        out.write(request);
        out.flush();
    }

    @Override
    public Completion awaitResponse() throws IOException {
        if (sentNanos == 0) {
            throw new IllegalStateException("no request outstanding");
        }
        String head = readHead();
        int status = Integer.parseInt(head.substring(9, 12));
        long length = contentLength(head);
        in.skipNBytes(length);
        long sent = sentNanos;
        sentNanos = 0;
        return new Completion(1, status, sent);
    }

    @Override
    public void holdIdle() throws IOException {
        socket.setSoTimeout(0);
        while (in.read() != -1) {
            // an idle HTTP/1.1 server sends nothing; EOF means it closed the connection
        }
    }

    private String readHead() throws IOException {
        StringBuilder head = new StringBuilder(160);
        int state = 0; // how much of CRLF CRLF has been seen
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("server closed the connection before the response head ended");
            }
            head.append((char) b);
            state = b == (state % 2 == 0 ? '\r' : '\n') ? state + 1 : b == '\r' ? 1 : 0;
            if (head.length() > MAX_HEAD) {
                throw new IOException("response head over " + MAX_HEAD + " bytes");
            }
        }
        if (head.length() < 12 || head.indexOf("HTTP/1.") != 0) {
            throw new IOException("not an HTTP/1.x response: " + head);
        }
        return head.toString();
    }

    private static long contentLength(String head) throws IOException {
        int from = 0;
        while (true) {
            int end = head.indexOf("\r\n", from);
            if (end < 0) {
                break;
            }
            int colon = head.indexOf(':', from);
            if (colon > from && colon < end && head.regionMatches(true, from, "Content-Length", 0, colon - from)
                    && colon - from == "Content-Length".length()) {
                return Long.parseLong(head.substring(colon + 1, end).trim());
            }
            from = end + 2;
        }
        throw new IOException("response without Content-Length: " + head.strip());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
