package dev.shuttle.mockserver;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The content of generated bodies ({@link MockResponse.Builder#bodyOfSize}): byte {@code i} is {@code 'a' + i % 26},
 * so a test can check any slice of a body against its offset, and a truncated body shows where it stopped.
 */
public final class MockBodies {
    /** Whole periods of the pattern, repeated to fill a write: 16 380 bytes. */
    private static final byte[] PATTERN = new byte[26 * 630];

    static {
        for (int i = 0; i < PATTERN.length; i++) {
            PATTERN[i] = (byte) ('a' + i % 26);
        }
    }

    private MockBodies() {
    }

    /**
     * {@return the byte at {@code offset} of any generated body}
     *
     * @param offset the position in the pattern, from 0
     */
    public static byte byteAt(long offset) {
        return (byte) ('a' + offset % 26);
    }

    /**
     * Bytes [from, from + count) of the pattern, for a test's expectations.
     *
     * @param from the first position, from 0
     * @param count how many bytes
     * @return a new array with those bytes
     */
    public static byte[] slice(long from, int count) {
        byte[] bytes = new byte[count];
        for (int i = 0; i < count; i++) {
            bytes[i] = byteAt(from + i);
        }
        return bytes;
    }

    /**
     * Writes bytes [from, from + count) of the pattern to {@code out}.
     *
     * @param out where the bytes go
     * @param from the first position, from 0
     * @param count how many bytes
     * @throws IOException when {@code out} fails
     */
    public static void write(OutputStream out, long from, long count) throws IOException {
        long offset = from;
        long remaining = count;
        while (remaining > 0) {
            int start = (int) (offset % 26);
            int length = (int) Math.min(remaining, PATTERN.length - start);
            out.write(PATTERN, start, length);
            offset += length;
            remaining -= length;
        }
    }
}
