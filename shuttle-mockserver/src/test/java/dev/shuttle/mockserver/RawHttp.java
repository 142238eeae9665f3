package dev.shuttle.mockserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately plain HTTP/1.1 client over one socket, for checking the mock server's exact framing and timing: it
 * records every chunk with the time it arrived and counts every byte it read.
 */
final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private long bytesRead;

    RawHttp(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    /** One response: status, headers (lower-case names), body, chunk sizes and their arrival times. */
    record Reply(int status, Map<String, String> headers, byte[] body, List<Integer> chunkSizes,
                 List<Long> chunkArrivalNanos, long endMarkerNanos, long sentNanos) {
        boolean chunked() {
            return "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        }
    }

    long bytesRead() {
        return bytesRead;
    }

    Reply get(String target) throws IOException {
        long sent = System.nanoTime();
        socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        List<Integer> sizes = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        long endMarker = 0;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            while (true) {
                String sizeLine = line();
                long at = System.nanoTime();
                int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
                if (size == 0) {
                    endMarker = at;
                    while (!line().isEmpty()) {
                        // trailers: none expected, skipped
                    }
                    break;
                }
                sizes.add(size);
                arrivals.add(at);
                body.write(exactly(size));
                line();
            }
        } else if (headers.containsKey("content-length")) {
            body.write(exactly(Integer.parseInt(headers.get("content-length"))));
        }
        return new Reply(status, headers, body.toByteArray(), sizes, arrivals, endMarker, sent);
    }

    /** True when the server closed the connection (EOF) before sending anything more. */
    boolean serverClosed() throws IOException {
        return in.read() == -1;
    }

    private byte[] exactly(int n) throws IOException {
        byte[] bytes = in.readNBytes(n);
        if (bytes.length != n) {
            throw new IOException("short body: " + bytes.length + " of " + n);
        }
        bytesRead += n;
        return bytes;
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed mid-line: " + line);
            }
            bytesRead++;
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) b);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
