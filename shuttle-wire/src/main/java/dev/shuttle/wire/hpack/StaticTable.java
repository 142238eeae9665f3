package dev.shuttle.wire.hpack;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The 61 entries of the HPACK static table (RFC 7541 Appendix A). Shared, immutable. */
final class StaticTable {
    static final int LENGTH = 61;

    private static final String[] ENTRIES = {
        ":authority", "",
        ":method", "GET",
        ":method", "POST",
        ":path", "/",
        ":path", "/index.html",
        ":scheme", "http",
        ":scheme", "https",
        ":status", "200",
        ":status", "204",
        ":status", "206",
        ":status", "304",
        ":status", "400",
        ":status", "404",
        ":status", "500",
        "accept-charset", "",
        "accept-encoding", "gzip, deflate",
        "accept-language", "",
        "accept-ranges", "",
        "accept", "",
        "access-control-allow-origin", "",
        "age", "",
        "allow", "",
        "authorization", "",
        "cache-control", "",
        "content-disposition", "",
        "content-encoding", "",
        "content-language", "",
        "content-length", "",
        "content-location", "",
        "content-range", "",
        "content-type", "",
        "cookie", "",
        "date", "",
        "etag", "",
        "expect", "",
        "expires", "",
        "from", "",
        "host", "",
        "if-match", "",
        "if-modified-since", "",
        "if-none-match", "",
        "if-range", "",
        "if-unmodified-since", "",
        "last-modified", "",
        "link", "",
        "location", "",
        "max-forwards", "",
        "proxy-authenticate", "",
        "proxy-authorization", "",
        "range", "",
        "referer", "",
        "refresh", "",
        "retry-after", "",
        "server", "",
        "set-cookie", "",
        "strict-transport-security", "",
        "transfer-encoding", "",
        "user-agent", "",
        "vary", "",
        "via", "",
        "www-authenticate", "",
    };

    /** Index 1..61 → name, value and the name's octets (for copying into the dynamic table). */
    private static final String[] NAMES = new String[LENGTH + 1];
    private static final String[] VALUES = new String[LENGTH + 1];
    private static final byte[][] NAME_BYTES = new byte[LENGTH + 1][];
    /** Name → its first (lowest) index; entries with the same name are adjacent. */
    private static final Map<String, Integer> FIRST_INDEX = new HashMap<>(128);

    static {
        for (int index = 1; index <= LENGTH; index++) {
            NAMES[index] = ENTRIES[2 * index - 2];
            VALUES[index] = ENTRIES[2 * index - 1];
            NAME_BYTES[index] = NAMES[index].getBytes(StandardCharsets.ISO_8859_1);
            FIRST_INDEX.putIfAbsent(NAMES[index], index);
        }
    }

    private StaticTable() {
    }

    static String name(int index) {
        return NAMES[index];
    }

    static String value(int index) {
        return VALUES[index];
    }

    static byte[] nameBytes(int index) {
        return NAME_BYTES[index];
    }

    /** The lowest index whose name is {@code name}, or 0. */
    static int nameIndex(String name) {
        Integer index = FIRST_INDEX.get(name);
        return index == null ? 0 : index;
    }

    /** The index of the entry {@code name: value}, or 0. */
    static int exactIndex(String name, String value) {
        int index = nameIndex(name);
        if (index == 0) {
            return 0;
        }
        for (; index <= LENGTH && NAMES[index].equals(name); index++) {
            if (VALUES[index].equals(value)) {
                return index;
            }
        }
        return 0;
    }
}
