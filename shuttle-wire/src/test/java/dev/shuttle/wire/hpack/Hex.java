package dev.shuttle.wire.hpack;

import java.util.HexFormat;

/** Hex dumps as RFC 7541 prints them ("8286 8441 ..."). */
final class Hex {
    private Hex() {
    }

    static byte[] parse(String dump) {
        return HexFormat.of().parseHex(dump.replaceAll("\\s+", ""));
    }

    static String format(byte[] bytes, int length) {
        return HexFormat.of().formatHex(bytes, 0, length);
    }
}
