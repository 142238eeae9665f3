package dev.shuttle.wire.http1;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Test helpers for wire bytes written as Latin-1 text. */
final class Bytes {
    private Bytes() {
    }

    static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    static ByteBuffer buffer(String text) {
        return ByteBuffer.wrap(latin1(text));
    }

    static String remainingText(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return text(bytes);
    }
}
