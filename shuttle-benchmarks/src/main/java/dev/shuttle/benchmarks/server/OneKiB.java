package dev.shuttle.benchmarks.server;

import java.nio.charset.StandardCharsets;

/** The response body every benchmark server sends: 1 KiB of printable bytes. */
final class OneKiB {
    static final byte[] BODY = "0123456789abcdef".repeat(64).getBytes(StandardCharsets.US_ASCII);

    private OneKiB() {
    }
}
