package dev.shuttle.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scripted HTTP/1 client over a plain socket, for tests that must send exactly the bytes they mean (bad input,
 * pipelining). Its response reader is deliberately independent of the wire module's parser.
 */
public final class RawConnection implements AutoCloseable {
    /** A parsed response: status, headers (names lower-cased), body, trailers. */
    public record RawResponse(int status, List<String[]> headers, byte[] body, List<String[]> trailers) {
        public String header(String name) {
            for (String[] field : headers) {
                if (field[0].equals(name.toLowerCase(Locale.ROOT))) {
                    return field[1];
                }
            }
            return null;
        }

        public String trailer(String name) {
            for (String[] field : trailers) {
                if (field[0].equals(name.toLowerCase(Locale.ROOT))) {
                    return field[1];
                }
            }
            return null;
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RawConnection(InetSocketAddress address) throws IOException {
        this.socket = new Socket();
        socket.connect(address, 5000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Over a socket connected (and, for TLS, wrapped) by the caller. */
    public RawConnection(Socket connected) throws IOException {
        this.socket = connected;
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    public RawConnection(HttpServer server) throws IOException {
        this(server.localAddress());
    }

    public Socket socket() {
        return socket;
    }

    public RawConnection send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawConnection send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    public RawResponse get(String path) throws IOException {
        send("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n");
        return readResponse();
    }

    public RawResponse readResponse() throws IOException {
        return readResponse(false);
    }

    /** Reads one final response (skipping 1xx unless {@code interimToo}); a HEAD response must use readHeadResponse. */
    public RawResponse readResponse(boolean interimToo) throws IOException {
        while (true) {
            RawResponse head = readHead();
            if (head.status() >= 100 && head.status() < 200 && !interimToo) {
                continue;
            }
            if (head.status() < 200 || head.status() == 204 || head.status() == 304) {
                return head;
            }
            return readBody(head);
        }
    }

    /** Reads a response that has no body whatever its headers say (to a HEAD request). */
    public RawResponse readHeadResponse() throws IOException {
        return readHead();
    }

    private RawResponse readHead() throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        if (!statusLine.startsWith("HTTP/1.1 ")) {
            throw new IOException("bad status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        List<String[]> headers = readFields();
        return new RawResponse(status, headers, new byte[0], List.of());
    }

    private List<String[]> readFields() throws IOException {
        List<String[]> fields = new ArrayList<>();
        String line;
        while ((line = readLine()) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            fields.add(new String[] {name, line.substring(colon + 1).strip()});
        }
        return fields;
    }

    private RawResponse readBody(RawResponse head) throws IOException {
        String length = head.header("content-length");
        String coding = head.header("transfer-encoding");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<String[]> trailers = List.of();
        if (coding != null && coding.equalsIgnoreCase("chunked")) {
            while (true) {
                String sizeLine = readLine();
                int semicolon = sizeLine.indexOf(';');
                int size = Integer.parseInt(semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon), 16);
                if (size == 0) {
                    trailers = readFields();
                    break;
                }
                body.write(in.readNBytes(size));
                if (!readLine().isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
        } else if (length != null) {
            byte[] bytes = in.readNBytes(Integer.parseInt(length));
            if (bytes.length != Integer.parseInt(length)) {
                throw new IOException("body truncated");
            }
            body.write(bytes);
        } else {
            body.write(in.readAllBytes()); // close-delimited
        }
        return new RawResponse(head.status(), head.headers(), body.toByteArray(), trailers);
    }

    /** A CRLF-terminated line, without the CRLF; null at EOF before any byte. */
    public String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                return line.isEmpty() ? null : line.toString();
            }
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) b);
        }
    }

    /** True when the server closed the connection (EOF or reset) within the socket timeout. */
    public boolean isClosedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Reads whatever arrives until EOF. */
    public byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    public void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
