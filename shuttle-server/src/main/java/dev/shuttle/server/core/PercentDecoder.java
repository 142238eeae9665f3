package dev.shuttle.server.core;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding (RFC 3986 section 2.1) of one component of a request target into UTF-8 text. A {@code +} is a plus
 * sign, as RFC 3986 says, except in {@code application/x-www-form-urlencoded} text, where it is a space. Two modes:
 * strict, for paths, where a malformed escape or bytes that are not UTF-8 (overlong forms such as {@code %c0%ae}
 * included) are an error, because a path decoded two ways is how traversal attacks pass a check; lenient, for query
 * text, where such a sequence is kept as it was sent. Stateless.
 */
public final class PercentDecoder {
    private PercentDecoder() {
    }

    /**
     * Decodes {@code text[from, to)}.
     *
     * @param plusIsSpace {@code +} means a space (form encoding)
     * @param strict      malformed escapes and invalid UTF-8 throw; otherwise they are kept verbatim
     * @throws IllegalArgumentException in strict mode, for a malformed escape or invalid UTF-8
     */
    public static String decode(String text, int from, int to, boolean plusIsSpace, boolean strict) {
        int firstSpecial = -1;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '%' || (plusIsSpace && c == '+')) {
                firstSpecial = i;
                break;
            }
        }
        if (firstSpecial < 0) {
            return text.substring(from, to);
        }
        StringBuilder out = new StringBuilder(to - from);
        out.append(text, from, firstSpecial);
        byte[] bytes = null;
        int i = firstSpecial;
        while (i < to) {
            char c = text.charAt(i);
            if (c == '+' && plusIsSpace) {
                out.append(' ');
                i++;
            } else if (c != '%') {
                out.append(c);
                i++;
            } else {
                int end = i;
                int count = 0;
                // A run of escapes decodes as one byte sequence: a multi-byte character spans several.
                while (end + 3 <= to && text.charAt(end) == '%' && hex(text, end + 1) >= 0
                        && hex(text, end + 2) >= 0) {
                    end += 3;
                    count++;
                }
                if (count == 0) {
                    if (strict) {
                        throw new IllegalArgumentException("malformed percent-encoding at offset " + (i - from));
                    }
                    out.append('%');
                    i++;
                    continue;
                }
                if (bytes == null || bytes.length < count) {
                    bytes = new byte[Math.max(count, 16)];
                }
                for (int k = 0; k < count; k++) {
                    int at = i + 3 * k;
                    bytes[k] = (byte) (hex(text, at + 1) << 4 | hex(text, at + 2));
                }
                appendUtf8(out, bytes, count, text, i, end, strict);
                i = end;
            }
        }
        return out.toString();
    }

    /** Decodes a whole component. */
    public static String decode(String text, boolean plusIsSpace, boolean strict) {
        return decode(text, 0, text.length(), plusIsSpace, strict);
    }

    private static void appendUtf8(StringBuilder out, byte[] bytes, int count, String text, int from, int to,
                                   boolean strict) {
        boolean ascii = true;
        for (int k = 0; k < count; k++) {
            if (bytes[k] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            for (int k = 0; k < count; k++) {
                out.append((char) bytes[k]);
            }
            return;
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = utf8.decode(ByteBuffer.wrap(bytes, 0, count));
            out.append(chars);
        } catch (CharacterCodingException e) {
            if (strict) {
                throw new IllegalArgumentException("percent-encoded bytes are not UTF-8: " + text.substring(from, to));
            }
            out.append(text, from, to);
        }
    }

    private static int hex(String text, int at) {
        char c = text.charAt(at);
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
