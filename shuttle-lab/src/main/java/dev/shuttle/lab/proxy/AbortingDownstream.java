package dev.shuttle.lab.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * The lab's downstream clients: each request on a new connection, reading the response head and part of the body
 * and then closing the connection, as a browser tab closed or a download cancelled mid-body. {@code concurrency}
 * virtual threads share the requests. Latency is from the connect to the abort.
 */
final class AbortingDownstream {
    /** What one batch of requests did. */
    record Outcome(int completed, int failed, long elapsedNanos, long p99Micros, String firstFailure) {
    }

    private AbortingDownstream() {
    }

    static Outcome run(int port, int size, int requests, int concurrency, boolean abort) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicLong firstFailure = new AtomicLong();
        String[] failure = new String[1];
        Recorder latencies = new Recorder(3);
        String request = "GET /bytes?n=" + size + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: shuttle-lab\r\n\r\n";
        byte[] requestBytes = request.getBytes(StandardCharsets.US_ASCII);
        int read = abort ? ProxySettings.abortAfter(size) : size;
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?>[] workers = new Future<?>[concurrency];
            for (int w = 0; w < concurrency; w++) {
                workers[w] = pool.submit(() -> {
                    while (next.getAndIncrement() < requests) {
                        long began = System.nanoTime();
                        try {
                            one(port, requestBytes, read);
                            latencies.recordValue(Math.max(1, (System.nanoTime() - began) / 1000));
                            completed.incrementAndGet();
                        } catch (IOException | RuntimeException e) {
                            failed.incrementAndGet();
                            if (firstFailure.compareAndSet(0, 1)) {
                                failure[0] = e.toString();
                            }
                        }
                    }
                    return null;
                });
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        }
        long elapsed = System.nanoTime() - start;
        long p99 = latencies.getIntervalHistogram().getValueAtPercentile(99);
        return new Outcome(completed.get(), failed.get(), elapsed, p99, failure[0]);
    }

    /** Connects, sends the request, reads the head and {@code bodyBytes} of the body, closes. */
    private static void one(int port, byte[] request, int bodyBytes) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            socket.setSoTimeout(30_000);
            socket.setTcpNoDelay(true);
            socket.getOutputStream().write(request);
            InputStream in = socket.getInputStream();
            int matched = 0;
            StringBuilder status = new StringBuilder();
            while (matched < 4) { // the head ends at CRLF CRLF
                int b = in.read();
                if (b < 0) {
                    throw new IOException("closed in the response head");
                }
                if (status.length() < 12) {
                    status.append((char) b);
                }
                matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1
                        : b == '\r' ? 1 : 0;
            }
            if (!status.toString().startsWith("HTTP/1.1 200")) {
                throw new IOException("unexpected status: " + status);
            }
            int left = bodyBytes;
            byte[] buffer = new byte[Math.min(Math.max(bodyBytes, 1), 64 * 1024)];
            while (left > 0) {
                int n = in.read(buffer, 0, Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the body ended " + left + " bytes early");
                }
                left -= n;
            }
        } // closed here, with the rest of the body unread: the abort
    }
}
