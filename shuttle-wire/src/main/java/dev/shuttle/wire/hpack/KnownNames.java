package dev.shuttle.wire.hpack;

import java.nio.charset.StandardCharsets;

/**
 * Turns field-name octets into a shared constant {@code String} when the name is a common one, so decoding a
 * request's names allocates nothing in the usual case: the static table's names, and those browsers, proxies and
 * gRPC send that it lacks. An open-addressing table keyed by {@link String#hashCode()}, which for Latin-1 text equals
 * the hash the dynamic table computes over the octets. Shared, immutable after class initialisation.
 */
final class KnownNames {
    private static final String[] EXTRA = {
        "te", "origin", "pragma", "priority", "dnt", "upgrade-insecure-requests",
        "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform", "sec-fetch-dest", "sec-fetch-mode", "sec-fetch-site",
        "sec-fetch-user", "sec-gpc", "x-requested-with", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
        "forwarded", "x-request-id", "traceparent", "tracestate", "content-security-policy",
        "x-content-type-options", "x-frame-options", "x-xss-protection", "referrer-policy", "alt-svc",
        "access-control-allow-credentials", "access-control-allow-headers", "access-control-allow-methods",
        "access-control-expose-headers", "access-control-max-age", "access-control-request-headers",
        "access-control-request-method", "timing-allow-origin", "early-data",
        "grpc-status", "grpc-message", "grpc-encoding", "grpc-accept-encoding", "grpc-timeout",
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    };
    private static final int SLOTS = 256;
    private static final String[] TABLE = new String[SLOTS];

    static {
        for (int index = 1; index <= StaticTable.LENGTH; index++) {
            add(StaticTable.name(index));
        }
        for (String name : EXTRA) {
            add(name);
        }
    }

    private KnownNames() {
    }

    private static void add(String name) {
        int slot = name.hashCode() & (SLOTS - 1);
        while (TABLE[slot] != null) {
            if (TABLE[slot].equals(name)) {
                return;
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        TABLE[slot] = name;
    }

    /** The hash {@link String#hashCode()} would give for these octets read as Latin-1. */
    static int hash(byte[] bytes, int offset, int length) {
        int hash = 0;
        for (int i = offset; i < offset + length; i++) {
            hash = 31 * hash + (bytes[i] & 0xff);
        }
        return hash;
    }

    /** The constant for these octets if they are a known name, else a new {@code String}. */
    static String intern(byte[] bytes, int offset, int length, int hash) {
        for (int slot = hash & (SLOTS - 1); TABLE[slot] != null; slot = (slot + 1) & (SLOTS - 1)) {
            String candidate = TABLE[slot];
            if (candidate.hashCode() == hash && sameText(candidate, bytes, offset, length)) {
                return candidate;
            }
        }
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    static String intern(byte[] bytes, int offset, int length) {
        return intern(bytes, offset, length, hash(bytes, offset, length));
    }

    private static boolean sameText(String text, byte[] bytes, int offset, int length) {
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) != (bytes[offset + i] & 0xff)) {
                return false;
            }
        }
        return true;
    }
}
