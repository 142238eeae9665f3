package dev.shuttle.wire.http2;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The client connection preface (RFC 9113 section 3.4): 24 fixed octets a client sends before its first SETTINGS
 * frame. A server reads them with {@link #read(ByteBuffer)}; the same call tells an HTTP/1.1 request apart early,
 * since the first octet that differs gives a {@link Match#MISMATCH}.
 */
public final class Http2Preface {
    private static final byte[] BYTES = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Length of the preface: 24 octets. */
    public static final int LENGTH = BYTES.length;

    /** What {@link #read(ByteBuffer)} saw. */
    public enum Match {
        /** All 24 octets were there and right; they have been consumed. */
        COMPLETE,
        /** Every octet so far is right but some are missing; nothing was consumed. */
        PARTIAL,
        /** An octet differs (not HTTP/2 prior knowledge, or garbage); nothing was consumed. */
        MISMATCH
    }

    private Http2Preface() {
    }

    /** A copy of the 24 octets. */
    public static byte[] bytes() {
        return BYTES.clone();
    }

    /** Checks the start of {@code in} (read mode) against the preface, consuming it only when complete. */
    public static Match read(ByteBuffer in) {
        int available = Math.min(in.remaining(), LENGTH);
        for (int i = 0; i < available; i++) {
            if (in.get(in.position() + i) != BYTES[i]) {
                return Match.MISMATCH;
            }
        }
        if (available < LENGTH) {
            return Match.PARTIAL;
        }
        in.position(in.position() + LENGTH);
        return Match.COMPLETE;
    }

    /** Writes the preface; a client follows it with its SETTINGS frame. */
    public static void write(ByteBuffer out) {
        if (out.remaining() < LENGTH) {
            throw new BufferOverflowException();
        }
        out.put(BYTES);
    }
}
