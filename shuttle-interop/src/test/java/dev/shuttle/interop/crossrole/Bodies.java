package dev.shuttle.interop.crossrole;

import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Bodies the cross-role tests send and check: byte {@code i} of every body is {@link #pattern}{@code (i)}, so a
 * reader checks each byte as it streams by, without keeping the body, and a lost, doubled or reordered frame shows.
 */
final class Bodies {
    private Bodies() {
    }

    /** Byte {@code offset} of every body: a period of 251 (prime), which no frame or window size divides. */
    static byte pattern(long offset) {
        return (byte) (offset % 251);
    }

    static byte[] body(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = pattern((long) i);
        }
        return bytes;
    }

    /** Reads {@code in} to its end, checking every byte against {@link #pattern}; returns how many there were. */
    static long readPattern(InputStream in) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long offset = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            for (int i = 0; i < n; i++) {
                if (buffer[i] != pattern(offset + i)) {
                    throw new AssertionError("byte " + (offset + i) + " is " + buffer[i] + ", not "
                            + pattern(offset + i));
                }
            }
            offset += n;
        }
        return offset;
    }

    /** Writes {@code length} pattern bytes to {@code out} in 64 KiB writes. */
    static void writePattern(OutputStream out, long length) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        for (long offset = 0; offset < length; ) {
            int n = (int) Math.min(chunk.length, length - offset);
            for (int i = 0; i < n; i++) {
                chunk[i] = pattern(offset + i);
            }
            out.write(chunk, 0, n);
            offset += n;
        }
    }

    /**
     * The handler most tests use. {@code GET /bytes/N}: N pattern bytes with their Content-Length. {@code POST}:
     * checks the request body against the pattern, then answers its length in the pattern (read whole first, since a
     * client sends its whole body before it reads: streaming back meanwhile could stall both once the windows fill).
     * Anything else: {@code hello} and the path.
     */
    static void serve(Request request, Response response) throws IOException {
        if (request.method().equals("POST")) {
            long length;
            try (InputStream in = request.body()) {
                length = readPattern(in);
            }
            response.contentLength(length);
            writePattern(response.body(), length);
        } else if (request.path().startsWith("/bytes/")) {
            long length = Long.parseLong(request.path().substring("/bytes/".length()));
            response.contentLength(length);
            writePattern(response.body(), length);
        } else {
            response.send("hello " + request.path());
        }
    }
}
