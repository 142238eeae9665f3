package dev.shuttle.client.http2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Tells an HTTP/1.1 server answering an HTTP/2 preface from a broken HTTP/2 peer: its status line would otherwise be
 * read as a frame header ("HTT" as a length of 4 740 180 octets) and reported as a FRAME_SIZE_ERROR, which sends the
 * caller looking in the wrong place. A server's first frame is SETTINGS, whose header starts with a zero byte.
 */
final class Http1Answer {
    private static final byte[] HTTP_SLASH = "HTTP/".getBytes(StandardCharsets.US_ASCII);
    /** Enough of the answer to show the status line, bounded so a garbage stream is not quoted in full. */
    private static final int QUOTED = 40;

    private Http1Answer() {
    }

    /**
     * @param buffer the bytes read so far, before the server's first frame (read mode; not consumed)
     * @throws IOException when they start like an HTTP/1.x status line
     */
    static void check(ByteBuffer buffer) throws IOException {
        if (buffer.remaining() < HTTP_SLASH.length) {
            return;
        }
        for (int i = 0; i < HTTP_SLASH.length; i++) {
            if (buffer.get(buffer.position() + i) != HTTP_SLASH[i]) {
                return;
            }
        }
        StringBuilder line = new StringBuilder();
        for (int i = buffer.position(); i < buffer.limit() && line.length() < QUOTED; i++) {
            byte b = buffer.get(i);
            if (b == '\r' || b == '\n') {
                break;
            }
            line.append(b >= 0x20 && b < 0x7f ? (char) b : '?');
        }
        throw new IOException("the server answered in HTTP/1 (\"" + line + "\"), not HTTP/2: it does not speak h2c"
                + " with prior knowledge (HttpClient.Builder.http2PriorKnowledge)");
    }
}
