package dev.shuttle.benchmarks.server;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.files.FileServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A large file served over plaintext HTTP/1.1 by {@link FileServer}, downloaded whole and then resumed from its middle
 * with {@code Range}, to show that it goes by {@code transferTo} and costs the heap nothing: prints the time, the
 * throughput, the bytes the transport sent straight from the file, and the heap in use after a GC before and after.
 * Not a CI test (a gibibyte of loopback traffic); for the lab machine.
 *
 * <p>Usage: {@code LargeFileTransfer [SIZE_MIB]} (default 1024). The file is sparse (its pages read as zeros), made
 * in a temporary directory and deleted after.
 */
public final class LargeFileTransfer {
    private LargeFileTransfer() {
    }

    public static void main(String[] args) throws Exception {
        long size = (args.length > 0 ? Long.parseLong(args[0]) : 1024) * 1024 * 1024;
        Path dir = Files.createTempDirectory("shuttle-large-file");
        Path file = dir.resolve("large.bin");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(size);
        }
        List<ConnectionInfo> connections = new CopyOnWriteArrayList<>();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (HttpServer server = HttpServer.builder().handler(FileServer.directory(dir).build())
                .connectionListener((connection, from, to) -> {
                    if (from == null) {
                        connections.add(connection);
                    }
                }).start()) {
            download(server.port(), null, 0); // warm-up: the code paths, not the file
            System.gc();
            long heapBefore = memory.getHeapMemoryUsage().getUsed();
            long start = System.nanoTime();
            long whole = download(server.port(), null, size);
            long nanos = System.nanoTime() - start;
            long resumed = download(server.port(), "bytes=" + size / 2 + "-", size - size / 2);
            System.gc();
            long heapAfter = memory.getHeapMemoryUsage().getUsed();
            long fromFiles = connections.stream()
                    .mapToLong(c -> ((ServerConnection) c).transport().bytesSentFromFiles()).sum();
            System.out.printf(Locale.ROOT, "served %d MiB in %.2f s: %.0f MiB/s%n", whole >> 20, nanos / 1e9,
                    (whole >> 20) / (nanos / 1e9));
            System.out.printf(Locale.ROOT, "resumed from the middle with Range: %d MiB%n", resumed >> 20);
            System.out.printf(Locale.ROOT, "sent by transferTo: %d of %d bytes (%.1f%%)%n", fromFiles,
                    whole + resumed, 100.0 * fromFiles / (whole + resumed));
            System.out.printf(Locale.ROOT, "heap in use after GC: %d KiB before, %d KiB after%n", heapBefore >> 10,
                    heapAfter >> 10);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** GETs the file (a range of it when {@code range} is given), reads and drops the body; returns its length. */
    private static long download(int port, String range, long expected) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            String request = "GET /large.bin HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
                    + (range == null ? (expected == 0 ? "Range: bytes=0-0\r\n" : "") : "Range: " + range + "\r\n")
                    + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[256 * 1024];
            long total = 0;
            int headEnd = -1;
            StringBuilder head = new StringBuilder();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (headEnd < 0) {
                    head.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                    headEnd = head.indexOf("\r\n\r\n");
                    if (headEnd >= 0) {
                        total = head.length() - (headEnd + 4);
                        head.setLength(headEnd);
                    }
                } else {
                    total += n;
                }
            }
            if (expected > 0 && total != expected) {
                throw new IOException("expected " + expected + " body bytes, got " + total + " after " + head);
            }
            return total;
        }
    }
}
