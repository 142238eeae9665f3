package dev.shuttle.lab.reuse.peers;

import dev.shuttle.mockserver.MockBodies;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the peer servers answer, the fixture's size-only cases: {@code /bytes?n=N} (N bytes with a Content-Length),
 * {@code /chunked?n=N} (the same with no declared length, which over HTTP/2 is DATA frames until END_STREAM),
 * {@code /json} and {@code /json-chunked} ({@code {"a":1}\n}, with and without a length). The bytes are the fixture's
 * pattern, from one shared read-only buffer.
 */
final class PeerBodies {
    /** The largest body a peer serves: the largest case's, 1 MiB, with room. */
    static final int MAX_BODY = 4 << 20;
    static final byte[] JSON = "{\"a\":1}\n".getBytes(StandardCharsets.US_ASCII);
    private static final ByteBuffer PATTERN = ByteBuffer.wrap(MockBodies.slice(0, MAX_BODY)).asReadOnlyBuffer();

    /** One answer: its bytes and whether it declares their length; null for a path no case asks for. */
    record Body(ByteBuffer bytes, boolean declaresLength, String contentType) {
        int length() {
            return bytes.remaining();
        }
    }

    private PeerBodies() {
    }

    static Body forRequest(String path, String query) {
        return switch (path) {
            case "/bytes" -> sized(query, true);
            case "/chunked" -> sized(query, false);
            case "/json" -> new Body(ByteBuffer.wrap(JSON).asReadOnlyBuffer(), true, "application/json");
            case "/json-chunked" -> new Body(ByteBuffer.wrap(JSON).asReadOnlyBuffer(), false, "application/json");
            default -> null;
        };
    }

    private static Body sized(String query, boolean declaresLength) {
        int n = 1024;
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.startsWith("n=")) {
                    try {
                        n = Integer.parseInt(pair.substring(2));
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
            }
        }
        if (n < 0 || n > MAX_BODY) {
            return null;
        }
        return new Body(PATTERN.slice(0, n), declaresLength, "application/octet-stream");
    }
}
