package dev.shuttle.client.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw HTTP/1.1 peer for what a well-behaved server never does: malformed framing, truncated bodies, closing a
 * kept-alive connection at a chosen moment. Each accepted connection runs the {@link Script} on a virtual thread;
 * the script reads requests with {@link Conn#readRequest()} and writes raw bytes. Loopback only.
 */
public final class ScriptedServer implements AutoCloseable {
    /** What to do on one connection; {@code index} counts connections from 0. */
    @FunctionalInterface
    public interface Script {
        void run(Conn conn, int index) throws Exception;
    }

    private final ServerSocket listener;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    public ScriptedServer(Script script) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("scripted-accept").start(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket socket = listener.accept();
                    sockets.add(socket);
                    int index = accepted.getAndIncrement();
                    Thread.ofVirtual().name("scripted-conn-" + index).start(() -> {
                        try (socket) {
                            script.run(new Conn(socket), index);
                        } catch (IOException e) {
                            // the client went away: part of many scripts
                        } catch (Exception | AssertionError e) {
                            failures.add(e);
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + path);
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    public List<Throwable> failures() {
        return failures;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    /** One accepted connection, from the script's side. */
    public static final class Conn {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /**
         * Reads one request head (and a Content-Length body, which it skips); returns the head's text, or null when
         * the client closed the connection.
         */
        public String readRequest() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    in.readNBytes(Integer.parseInt(line.substring(15).trim()));
                }
            }
            return text;
        }

        public void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        public void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Waits until the client closes its side (reads and drops anything it sends). */
        public void awaitClientClose() throws IOException {
            byte[] sink = new byte[1024];
            while (in.read(sink) >= 0) {
                // drop
            }
        }

        public Socket socket() {
            return socket;
        }
    }
}
