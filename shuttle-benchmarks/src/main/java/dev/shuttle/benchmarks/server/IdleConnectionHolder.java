package dev.shuttle.benchmarks.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens N keep-alive connections to a server, completes one request on each (so the server has seen a whole
 * exchange and then sees the connection go idle), and holds them open until its standard input closes. Runs in its
 * own JVM, so the server process under measurement holds only its own half of each connection.
 *
 * <p>Usage: {@code IdleConnectionHolder PORT COUNT}; prints {@code HELD COUNT} once every connection is idle.
 */
public final class IdleConnectionHolder {
    private static final byte[] REQUEST =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private IdleConnectionHolder() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        List<Socket> held = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(10_000);
            exchange(socket);
            held.add(socket);
            if ((i + 1) % 1000 == 0) {
                System.err.println("holder: " + (i + 1) + " connections idle");
            }
        }
        System.out.println("HELD " + held.size());
        System.out.flush();
        // Hold until the driver closes our stdin.
        while (System.in.read() != -1) {
            // keep reading
        }
        for (Socket socket : held) {
            socket.close();
        }
    }

    /** One request and its whole response: head up to the blank line, then Content-Length bytes. */
    private static void exchange(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(REQUEST);
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("server closed before the response head ended");
            }
            head.append((char) b);
        }
        long length = contentLength(head.toString());
        in.skipNBytes(length);
    }

    private static long contentLength(String head) throws IOException {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        throw new IOException("response without Content-Length: " + head);
    }
}
