package dev.shuttle.wire.hpack;

import dev.shuttle.wire.http2.Http2Settings;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * HPACK encoder (RFC 7541): turns field lists into field blocks. One per connection and direction, owned by the
 * thread (or the holder of the lock) that writes HEADERS on the connection; not thread-safe. Blocks must go out in
 * the order they were encoded.
 *
 * <p>Choices, field by field:
 * <ul>
 *   <li>An exact match in the static or dynamic table is sent as an index (one or two octets), unless the field is
 *       sensitive.</li>
 *   <li>Otherwise {@link IndexingPolicy#DEFAULT} decides: sensitive fields never indexed, fields whose values
 *       rarely repeat not indexed, everything else added to the dynamic table. A field taking more than half the
 *       table is not indexed either, since it would evict most of what is there.</li>
 *   <li>Names are sent as an index whenever the static or dynamic table has them. Strings are Huffman-coded when
 *       that is shorter.</li>
 * </ul>
 *
 * <p>Table size: the encoder uses {@code min(peer's SETTINGS_HEADER_TABLE_SIZE, tableSizeCap)}. When that changes
 * it emits a dynamic table size update at the start of the next block, preceded by the smallest size in between when
 * the size went down and back up (RFC 7541 section 4.2), so the peer evicts exactly what we evicted.
 *
 * <p>Idle footprint: the dynamic table, which holds octets only (see {@link DynamicTable}), and a few fields.
 */
public final class HpackEncoder {
    /**
     * Largest table used by default, whatever the peer allows: the RFC's initial size. Go caps its encoder the same
     * way; a larger table buys little for typical headers and costs memory per connection.
     */
    public static final int DEFAULT_TABLE_SIZE_CAP = Http2Settings.DEFAULT_HEADER_TABLE_SIZE;
    private final int tableSizeCap;
    private final Huffman.Use huffman;
    private final IndexingPolicy policy;
    private final DynamicTable table;
    /** Smallest table size since the last block was encoded, or -1 when no size update is pending. */
    private int pendingMinimumSize = -1;

    public HpackEncoder() {
        this(DEFAULT_TABLE_SIZE_CAP);
    }

    /** @param tableSizeCap the largest dynamic table this encoder uses; 0 disables the dynamic table */
    public HpackEncoder(int tableSizeCap) {
        this(tableSizeCap, Math.min(tableSizeCap, Http2Settings.DEFAULT_HEADER_TABLE_SIZE),
                Huffman.Use.WHEN_SHORTER, IndexingPolicy.DEFAULT);
        if (tableSizeCap < Http2Settings.DEFAULT_HEADER_TABLE_SIZE) {
            // The peer's decoder starts at 4096 and must learn that we use less.
            pendingMinimumSize = tableSizeCap;
        }
    }

    /**
     * For tests that need exact RFC output: a table already at {@code tableSize} as far as the peer knows, another
     * use of Huffman coding, and another indexing policy.
     */
    HpackEncoder(int tableSizeCap, int tableSize, Huffman.Use huffman, IndexingPolicy policy) {
        if (tableSizeCap < 0 || tableSize < 0 || tableSize > tableSizeCap) {
            throw new IllegalArgumentException("invalid table sizes " + tableSizeCap + ", " + tableSize);
        }
        this.tableSizeCap = tableSizeCap;
        this.huffman = huffman;
        this.policy = policy;
        this.table = new DynamicTable(tableSize);
    }

    /** Takes the peer's SETTINGS_HEADER_TABLE_SIZE; call it for every value received, in order, between blocks. */
    public void peerMaxTableSize(long settingsHeaderTableSize) {
        if (settingsHeaderTableSize < 0) {
            throw new IllegalArgumentException("negative table size " + settingsHeaderTableSize);
        }
        int size = (int) Math.min(settingsHeaderTableSize, tableSizeCap);
        if (size == table.maxSize()) {
            return;
        }
        table.setMaxSize(size);
        pendingMinimumSize = pendingMinimumSize < 0 ? size : Math.min(pendingMinimumSize, size);
    }

    /**
     * Octets {@link #encode} may need at most for these fields: literal text plus 13 octets of framing per field,
     * plus 12 for size updates. Size output buffers with it.
     */
    public static int maxEncodedLength(List<String> namesAndValues) {
        long bound = 12;
        for (String text : namesAndValues) {
            bound += text.length() + 6;
        }
        bound += namesAndValues.size() / 2;
        return (int) Math.min(Integer.MAX_VALUE, bound);
    }

    /**
     * Encodes one field block.
     *
     * @param namesAndValues name0, value0, name1, value1, ...: names as they go on the wire (HTTP/2 wants lower case,
     *                       which {@link dev.shuttle.wire.http2.Http2Fields} takes care of), all text Latin-1
     * @param out            receives the block; needs {@link #maxEncodedLength} octets
     * @throws BufferOverflowException  when {@code out} has less room than {@link #maxEncodedLength}; nothing was
     *                                  written and the table is unchanged
     * @throws IllegalArgumentException for an odd list or a character above U+00FF; likewise nothing changed
     */
    public void encode(List<String> namesAndValues, ByteBuffer out) {
        if (namesAndValues.size() % 2 != 0) {
            throw new IllegalArgumentException("expected name/value pairs, got " + namesAndValues.size()
                    + " strings");
        }
        for (String text : namesAndValues) {
            requireLatin1(text);
        }
        if (out.remaining() < maxEncodedLength(namesAndValues)) {
            throw new BufferOverflowException();
        }
        if (pendingMinimumSize >= 0) {
            if (pendingMinimumSize < table.maxSize()) {
                writeInt(out, 0x20, 5, pendingMinimumSize);
            }
            writeInt(out, 0x20, 5, table.maxSize());
            pendingMinimumSize = -1;
        }
        for (int i = 0; i < namesAndValues.size(); i += 2) {
            encodeField(namesAndValues.get(i), namesAndValues.get(i + 1), out);
        }
    }

    /** Entries in the dynamic table (for tests). */
    public int tableLength() {
        return table.length();
    }

    /** Size of the dynamic table as RFC 7541 counts it (for tests). */
    public int tableSize() {
        return table.size();
    }

    /** Entry {@code index} (0 is the newest) as "name: value" (for tests). */
    public String tableEntry(int index) {
        return table.name(index) + ": " + table.value(index);
    }

    private void encodeField(String name, String value, ByteBuffer out) {
        IndexingPolicy.Indexing indexing = policy.indexing(name, value);
        if (indexing != IndexingPolicy.Indexing.NEVER) {
            int exact = StaticTable.exactIndex(name, value);
            if (exact == 0) {
                int dynamic = table.indexOf(name, value);
                exact = dynamic < 0 ? 0 : StaticTable.LENGTH + 1 + dynamic;
            }
            if (exact > 0) {
                writeInt(out, 0x80, 7, exact);
                return;
            }
        }
        int nameIndex = StaticTable.nameIndex(name);
        if (nameIndex == 0) {
            int dynamic = table.indexOfName(name);
            nameIndex = dynamic < 0 ? 0 : StaticTable.LENGTH + 1 + dynamic;
        }
        if (indexing == IndexingPolicy.Indexing.INCREMENTAL
                && (long) name.length() + value.length() + DynamicTable.ENTRY_OVERHEAD > table.maxSize() / 2) {
            indexing = IndexingPolicy.Indexing.WITHOUT;
        }
        switch (indexing) {
            case INCREMENTAL -> writeInt(out, 0x40, 6, nameIndex);
            case WITHOUT -> writeInt(out, 0x00, 4, nameIndex);
            case NEVER -> writeInt(out, 0x10, 4, nameIndex);
        }
        if (nameIndex == 0) {
            writeString(out, name);
        }
        writeString(out, value);
        if (indexing == IndexingPolicy.Indexing.INCREMENTAL) {
            table.add(name, value);
        }
    }

    private void writeString(ByteBuffer out, String text) {
        int huffmanLength = huffman == Huffman.Use.NEVER ? Integer.MAX_VALUE : Huffman.encodedLength(text);
        if (huffmanLength < text.length() || (huffman == Huffman.Use.ALWAYS && huffmanLength == text.length())) {
            writeInt(out, 0x80, 7, huffmanLength);
            Huffman.encode(text, out);
            return;
        }
        writeInt(out, 0x00, 7, text.length());
        for (int i = 0; i < text.length(); i++) {
            out.put((byte) text.charAt(i));
        }
    }

    /** Integer with an N-bit prefix (RFC 7541 section 5.1); {@code flags} are the bits above the prefix. */
    static void writeInt(ByteBuffer out, int flags, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.put((byte) (flags | value));
            return;
        }
        out.put((byte) (flags | max));
        value -= max;
        while (value >= 0x80) {
            out.put((byte) (value & 0x7f | 0x80));
            value >>>= 7;
        }
        out.put((byte) value);
    }

    private static void requireLatin1(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xff) {
                throw new IllegalArgumentException("not a Latin-1 character in a field: U+"
                        + Integer.toHexString(text.charAt(i)));
            }
        }
    }
}
