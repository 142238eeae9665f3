package dev.shuttle.wire.hpack;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.nio.ByteBuffer;

/**
 * The static Huffman code of HPACK (RFC 7541 section 5.2 and Appendix B). Shared, immutable.
 *
 * <p>The code is canonical: codes of one length are consecutive in symbol order, each length's first code following
 * the previous length's last. So the table below holds only the 257 code lengths of Appendix B, and the codes are
 * derived from them at class initialisation (the tests check the result against codes printed in the RFC).
 *
 * <p>Decoding walks a finite-state machine four bits at a time: the states are the 256 inner nodes of the code tree,
 * and each (state, nibble) entry gives the next state and the symbol completed on the way, if any (the shortest code
 * is 5 bits, so a nibble completes at most one). At the end the state says whether the leftover bits are valid
 * padding: fewer than 8 bits, all ones (a prefix of EOS). Decoding EOS itself is an error.
 */
final class Huffman {
    /** When an encoder uses the code: Shuttle's encoder when it is shorter; the others for tests. */
    enum Use { NEVER, WHEN_SHORTER, ALWAYS }

    /** Code length in bits of each symbol 0..255 and EOS (256), from RFC 7541 Appendix B. */
    private static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,  // 0..15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,  // 16..31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,  // 32..47
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,  // 48..63
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  // 64..79
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,  // 80..95
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,  // 96..111
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,  // 112..127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,  // 128..143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,  // 144..159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,  // 160..175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,  // 176..191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,  // 192..207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,  // 208..223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,  // 224..239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,  // 240..255
        30,  // 256..256
    };
    private static final int EOS = 256;
    private static final int[] CODES = new int[257];

    /** Per (state << 4 | nibble): bits 0-7 next state, bit 8 a symbol was completed, bits 9-16 that symbol. */
    private static final int[] TRANSITIONS = new int[256 * 16];
    private static final int EMITS = 1 << 8;
    /** Set instead when the nibble completes EOS, which must never appear in a string. */
    private static final int FAILS = 1 << 17;
    /** States where a string may end: the root, or 1 to 7 one-bits into the EOS prefix. */
    private static final boolean[] ACCEPTS = new boolean[256];

    static {
        assignCanonicalCodes();
        buildDecoder();
    }

    private Huffman() {
    }

    /** Octets that {@code text} (Latin-1 only) takes when Huffman-coded. */
    static int encodedLength(CharSequence text) {
        long bits = 0;
        for (int i = 0; i < text.length(); i++) {
            bits += LENGTHS[latin1(text.charAt(i))];
        }
        return (int) ((bits + 7) >>> 3);
    }

    /** Writes the Huffman code of {@code text}, padded with the EOS prefix; needs {@link #encodedLength} octets. */
    static void encode(CharSequence text, ByteBuffer out) {
        long pending = 0;
        int pendingBits = 0;
        for (int i = 0; i < text.length(); i++) {
            int symbol = latin1(text.charAt(i));
            pending = (pending << LENGTHS[symbol]) | CODES[symbol];
            pendingBits += LENGTHS[symbol];
            while (pendingBits >= 8) {
                pendingBits -= 8;
                out.put((byte) (pending >>> pendingBits));
            }
        }
        if (pendingBits > 0) {
            out.put((byte) ((pending << (8 - pendingBits)) | (0xff >>> pendingBits)));
        }
    }

    /** The most octets {@code encodedLength} octets can decode to: every symbol is at least 5 bits. */
    static int maxDecodedLength(int encodedLength) {
        return (int) (encodedLength * 8L / 5);
    }

    /**
     * Decodes {@code length} octets at {@code offset} into {@code out} at {@code outOffset}, which must have room for
     * {@link #maxDecodedLength}.
     *
     * @return the number of octets decoded
     * @throws Http2Exception connection COMPRESSION_ERROR for EOS in the data, padding of 8 bits or more, or padding
     *                        that is not all ones
     */
    static int decode(byte[] in, int offset, int length, byte[] out, int outOffset) throws Http2Exception {
        int state = 0;
        int written = outOffset;
        for (int i = offset; i < offset + length; i++) {
            int octet = in[i] & 0xff;
            int step = TRANSITIONS[state << 4 | octet >>> 4];
            if ((step & EMITS) != 0) {
                out[written++] = (byte) (step >>> 9);
            }
            int next = TRANSITIONS[(step & 0xff) << 4 | octet & 0xf];
            if (((step | next) & FAILS) != 0) {
                throw error("EOS symbol inside a Huffman-coded string");
            }
            if ((next & EMITS) != 0) {
                out[written++] = (byte) (next >>> 9);
            }
            state = next & 0xff;
        }
        if (!ACCEPTS[state]) {
            throw error("Huffman padding is longer than 7 bits or not a prefix of EOS");
        }
        return written - outOffset;
    }

    /** The code of {@code symbol}, right-aligned in an int (for tests). */
    static int code(int symbol) {
        return CODES[symbol];
    }

    static int codeLength(int symbol) {
        return LENGTHS[symbol];
    }

    private static int latin1(char c) {
        if (c > 0xff) {
            throw new IllegalArgumentException("not a Latin-1 character: U+" + Integer.toHexString(c));
        }
        return c;
    }

    private static Http2Exception error(String message) {
        return Http2Exception.connectionError(Http2ErrorCode.COMPRESSION_ERROR, message);
    }

    private static void assignCanonicalCodes() {
        int code = -1;
        int previousLength = 0;
        for (int length = 1; length <= 30; length++) {
            for (int symbol = 0; symbol <= EOS; symbol++) {
                if (LENGTHS[symbol] == length) {
                    code = (code + 1) << (length - previousLength);
                    previousLength = length;
                    CODES[symbol] = code;
                }
            }
        }
    }

    /** Builds the code tree (inner nodes 0..255, leaves as -1 - symbol), then the nibble machine over it. */
    private static void buildDecoder() {
        int[][] children = new int[2][256];
        int nodes = 1;
        for (int symbol = 0; symbol <= EOS; symbol++) {
            int node = 0;
            for (int bit = LENGTHS[symbol] - 1; bit >= 0; bit--) {
                int branch = (CODES[symbol] >>> bit) & 1;
                if (bit == 0) {
                    children[branch][node] = -1 - symbol;
                } else {
                    if (children[branch][node] == 0) {
                        children[branch][node] = nodes++;
                    }
                    node = children[branch][node];
                }
            }
        }
        for (int state = 0; state < 256; state++) {
            for (int nibble = 0; nibble < 16; nibble++) {
                int node = state;
                int result = 0;
                for (int bit = 3; bit >= 0; bit--) {
                    int child = children[(nibble >>> bit) & 1][node];
                    if (child < 0) {
                        int symbol = -1 - child;
                        result = symbol == EOS ? FAILS : EMITS | symbol << 9;
                        node = 0;
                    } else {
                        node = child;
                    }
                }
                TRANSITIONS[state << 4 | nibble] = result | node;
            }
        }
        int node = 0;
        for (int ones = 0; ones <= 7; ones++) {
            ACCEPTS[node] = true;
            node = children[1][node];
        }
    }
}
