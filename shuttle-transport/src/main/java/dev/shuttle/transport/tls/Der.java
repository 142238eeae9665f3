package dev.shuttle.transport.tls;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The little ASN.1 DER that certificates and key files need: encoding for {@link SelfSignedCertificate}, and walking
 * the few structures {@link KeyMaterial} unwraps. Not a general ASN.1 library.
 */
final class Der {
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int UTF8_STRING = 0x0c;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;
    static final int BOOLEAN = 0x01;
    static final int UTC_TIME = 0x17;
    static final int GENERALIZED_TIME = 0x18;

    private Der() {
    }

    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else if (length < 0x10000) {
            out.write(0x82);
            out.write(length >> 8);
            out.write(length);
        } else {
            out.write(0x83);
            out.write(length >> 16);
            out.write(length >> 8);
            out.write(length);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(SEQUENCE, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tlv(SET, concat(parts));
    }

    /** A context-specific constructed tag {@code [n]} wrapping {@code parts} (EXPLICIT tagging). */
    static byte[] explicit(int n, byte[]... parts) {
        return tlv(0xa0 | n, concat(parts));
    }

    /** A context-specific primitive tag {@code [n]} (IMPLICIT tagging of a primitive type). */
    static byte[] implicit(int n, byte[] value) {
        return tlv(0x80 | n, value);
    }

    static byte[] integer(BigInteger value) {
        return tlv(INTEGER, value.toByteArray());
    }

    static byte[] integer(long value) {
        return integer(BigInteger.valueOf(value));
    }

    static byte[] bool(boolean value) {
        return tlv(BOOLEAN, new byte[] {(byte) (value ? 0xff : 0)});
    }

    static byte[] octets(byte[] value) {
        return tlv(OCTET_STRING, value);
    }

    /** A BIT STRING with no unused bits. */
    static byte[] bits(byte[] value) {
        byte[] content = new byte[value.length + 1];
        System.arraycopy(value, 0, content, 1, value.length);
        return tlv(BIT_STRING, content);
    }

    static byte[] utf8(String text) {
        return tlv(UTF8_STRING, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] nullValue() {
        return new byte[] {NULL, 0};
    }

    /** An OBJECT IDENTIFIER from its dotted form. */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            byte[] base128 = new byte[10];
            int n = 0;
            do {
                base128[n++] = (byte) (arc & 0x7f);
                arc >>>= 7;
            } while (arc != 0);
            for (int j = n - 1; j >= 0; j--) {
                out.write(base128[j] | (j > 0 ? 0x80 : 0));
            }
        }
        return tlv(OID, out.toByteArray());
    }

    /** UTCTime through 2049, GeneralizedTime after, as RFC 5280 4.1.2.5 requires. */
    static byte[] time(ZonedDateTime time) {
        ZonedDateTime utc = time.withZoneSameInstant(ZoneOffset.UTC);
        if (utc.getYear() < 2050) {
            return tlv(UTC_TIME, DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").format(utc)
                    .getBytes(StandardCharsets.US_ASCII));
        }
        return tlv(GENERALIZED_TIME, DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").format(utc)
                .getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** A cursor over DER input, for reading a few known structures; owned by the thread that reads with it. */
    static final class Reader {
        private final byte[] input;
        private int position;
        private final int end;

        Reader(byte[] input) {
            this(input, 0, input.length);
        }

        private Reader(byte[] input, int from, int to) {
            this.input = input;
            this.position = from;
            this.end = to;
        }

        boolean hasMore() {
            return position < end;
        }

        /** The next element's tag, length and content; the cursor moves past it. */
        Element next() {
            check(position + 2 <= end);
            int header = position;
            int tag = input[position++] & 0xff;
            int length = input[position++] & 0xff;
            if (length >= 0x80) {
                int count = length & 0x7f;
                check(count >= 1 && count <= 3 && position + count <= end);
                length = 0;
                for (int i = 0; i < count; i++) {
                    length = (length << 8) | (input[position++] & 0xff);
                }
            }
            check(length >= 0 && position + length <= end);
            Element element = new Element(tag, input, header, position, length);
            position += length;
            return element;
        }

        private static void check(boolean ok) {
            if (!ok) {
                throw new IllegalArgumentException("malformed DER");
            }
        }
    }

    /** One DER element. */
    record Element(int tag, byte[] source, int header, int offset, int length) {
        byte[] content() {
            byte[] copy = new byte[length];
            System.arraycopy(source, offset, copy, 0, length);
            return copy;
        }

        /** The encoding of this element, tag and length included. */
        byte[] encoded() {
            byte[] copy = new byte[offset + length - header];
            System.arraycopy(source, header, copy, 0, copy.length);
            return copy;
        }

        Reader children() {
            return new Reader(source, offset, offset + length);
        }
    }
}
