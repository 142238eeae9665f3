package dev.shuttle.wire.hpack;

import static dev.shuttle.wire.http2.Http2ErrorCode.COMPRESSION_ERROR;

import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Limits;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * HPACK decoder (RFC 7541): turns field blocks into fields. One per connection and direction, owned by the thread
 * that reads the connection; not thread-safe. Blocks must be decoded in the order they arrived, every one of them,
 * including blocks of streams that are being refused, or the dynamic table falls out of step with the peer's.
 *
 * <p>Limits:
 * <ul>
 *   <li>Field list size, counted as SETTINGS_MAX_HEADER_LIST_SIZE counts it (name + value + 32 per field). Going
 *       over does not stop decoding (the table must stay in step): the fields past the limit are not delivered, not
 *       even turned into strings, and {@link #decode} returns false so that a server can answer 431 (or RST_STREAM)
 *       and a client can reset the stream, while the connection lives on. This is also what defuses an "HPACK bomb"
 *       (one large entry referenced many times by one-octet indexes): the references past the limit cost a
 *       comparison each, no allocation.</li>
 *   <li>String lengths are checked against what is left of the block before anything is allocated, and a
 *       Huffman-coded string decodes to at most 8/5 of its length; the block itself is bounded by
 *       {@link dev.shuttle.wire.http2.HeaderBlockAssembler}.</li>
 *   <li>Dynamic table size updates are accepted only at the start of a block, at most two (RFC 7541 section 4.2),
 *       and never above the table size we announced ({@link #maxTableSize(int)}).</li>
 * </ul>
 * Every violation of the format is a connection error COMPRESSION_ERROR.
 *
 * <p>Idle footprint: the dynamic table (see {@link DynamicTable}) and a few ints. A decode call may allocate a
 * scratch array for Huffman-coded strings and copied names; it is dropped when the call returns.
 */
public final class HpackDecoder {
    private final int maxHeaderListSize;
    private final DynamicTable table;
    /** Our acknowledged SETTINGS_HEADER_TABLE_SIZE: the largest size an update may ask for. */
    private int tableSizeLimit;
    /** Our limit fell below the table's size; the peer's next block must start with a size update. */
    private boolean sizeUpdateRequired;

    // Per-call state, reset by every decode() and cleared when it returns.
    private byte[] in;
    private int position;
    private int end;
    private byte[] scratch;
    private int scratchLength;
    private long listSize;
    private boolean tooLarge;
    /** Where the last string read lies: {@link #in} or {@link #scratch}. */
    private byte[] stringArray;
    private int stringOffset;
    private int stringLength;

    /**
     * @param maxHeaderListSize our SETTINGS_MAX_HEADER_LIST_SIZE
     * @param maxTableSize      our SETTINGS_HEADER_TABLE_SIZE (4096 unless we announce otherwise)
     */
    public HpackDecoder(int maxHeaderListSize, int maxTableSize) {
        if (maxHeaderListSize <= 0 || maxTableSize < 0) {
            throw new IllegalArgumentException("invalid limits " + maxHeaderListSize + ", " + maxTableSize);
        }
        this.maxHeaderListSize = maxHeaderListSize;
        this.tableSizeLimit = maxTableSize;
        this.table = new DynamicTable(maxTableSize);
    }

    public HpackDecoder(Http2Limits limits) {
        this(limits.maxHeaderListSize(), limits.headerTableSize());
    }

    /**
     * Sets the table size limit to a new SETTINGS_HEADER_TABLE_SIZE of ours. Call it when the peer acknowledges the
     * SETTINGS frame that carried it (before that, its encoder may still use the old size). When the new limit is
     * below the table's current size, the peer's next block must begin with a size update that obeys it.
     */
    public void maxTableSize(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative table size " + limit);
        }
        tableSizeLimit = limit;
        if (limit < table.maxSize()) {
            sizeUpdateRequired = true;
        }
    }

    /**
     * Decodes one whole field block, delivering its fields in order to {@code sink}, and consumes {@code block}.
     *
     * @return true when the field list fit in the max header list size; false when it did not, in which case only
     *         the fields before the limit were delivered (the block was still decoded to the end)
     * @throws Http2Exception connection COMPRESSION_ERROR when the block is malformed
     */
    public boolean decode(ByteBuffer block, FieldSink sink) throws Http2Exception {
        if (block.hasArray()) {
            in = block.array();
            position = block.arrayOffset() + block.position();
        } else {
            in = new byte[block.remaining()];
            block.get(block.position(), in);
            position = 0;
        }
        end = position + block.remaining();
        block.position(block.limit());
        listSize = 0;
        tooLarge = false;
        try {
            decodeFields(sink);
            return !tooLarge;
        } finally {
            in = null;
            scratch = null;
            stringArray = null;
        }
    }

    /** Entries in the dynamic table (for tests and diagnostics). */
    public int tableLength() {
        return table.length();
    }

    /** Size of the dynamic table as RFC 7541 counts it. */
    public int tableSize() {
        return table.size();
    }

    /** The dynamic table's current maximum size, as last set by the peer's size update. */
    public int tableMaxSize() {
        return table.maxSize();
    }

    /** Dynamic table entry {@code index} (0 is the newest, HPACK index 62) as "name: value", for tests. */
    public String tableEntry(int index) {
        return table.name(index) + ": " + table.value(index);
    }

    private void decodeFields(FieldSink sink) throws Http2Exception {
        boolean atStart = true;
        int sizeUpdates = 0;
        while (position < end) {
            int first = in[position] & 0xff;
            if ((first & 0xe0) == 0x20) {
                if (!atStart) {
                    throw error("dynamic table size update after a field");
                }
                if (++sizeUpdates > 2) {
                    throw error("more than two dynamic table size updates in one block");
                }
                int size = readInt(5);
                if (size > tableSizeLimit) {
                    throw error("dynamic table size update to " + size + " exceeds SETTINGS_HEADER_TABLE_SIZE "
                            + tableSizeLimit);
                }
                table.setMaxSize(size);
                sizeUpdateRequired = false;
                continue;
            }
            if (sizeUpdateRequired) {
                throw error("block must start with a dynamic table size update of at most " + tableSizeLimit);
            }
            atStart = false;
            scratchLength = 0;
            if ((first & 0x80) != 0) {
                indexed(readInt(7), sink);
            } else if ((first & 0x40) != 0) {
                literal(readInt(6), true, sink);
            } else {
                // 0000xxxx without indexing, 0001xxxx never indexed: decoded alike.
                literal(readInt(4), false, sink);
            }
        }
    }

    private void indexed(int index, FieldSink sink) throws Http2Exception {
        if (index == 0) {
            throw error("indexed field with index 0");
        }
        if (index <= StaticTable.LENGTH) {
            String name = StaticTable.name(index);
            String value = StaticTable.value(index);
            if (fits(name.length(), value.length())) {
                sink.field(name, value);
            }
            return;
        }
        int dynamic = dynamicIndex(index);
        if (fits(table.nameLength(dynamic), table.valueLength(dynamic))) {
            sink.field(table.name(dynamic), table.value(dynamic));
        }
    }

    private void literal(int nameIndex, boolean addToTable, FieldSink sink) throws Http2Exception {
        // Fields past the limit that do not go into the table need not be decoded at all.
        boolean materialize = addToTable || !tooLarge;
        String name = null;
        byte[] nameArray;
        int nameOffset;
        int nameLength;
        if (nameIndex == 0) {
            readString(materialize);
            nameArray = stringArray;
            nameOffset = stringOffset;
            nameLength = stringLength;
        } else if (nameIndex <= StaticTable.LENGTH) {
            name = StaticTable.name(nameIndex);
            nameArray = StaticTable.nameBytes(nameIndex);
            nameOffset = 0;
            nameLength = nameArray.length;
        } else {
            int dynamic = dynamicIndex(nameIndex);
            nameLength = table.nameLength(dynamic);
            // A copy, because adding the new entry may evict the one that holds the name (RFC 7541 section 4.4).
            nameOffset = reserveScratch(nameLength);
            nameArray = scratch;
            table.copyName(dynamic, nameArray, nameOffset);
        }
        readString(materialize);
        if (!materialize) {
            return;
        }
        if (addToTable) {
            table.add(nameArray, nameOffset, nameLength, stringArray, stringOffset, stringLength);
        }
        if (fits(nameLength, stringLength)) {
            if (name == null) {
                name = KnownNames.intern(nameArray, nameOffset, nameLength);
            }
            sink.field(name, new String(stringArray, stringOffset, stringLength, StandardCharsets.ISO_8859_1));
        }
    }

    /** Adds a field to the list size; false once the list is over the limit. */
    private boolean fits(int nameLength, int valueLength) {
        listSize += (long) nameLength + valueLength + DynamicTable.ENTRY_OVERHEAD;
        if (listSize > maxHeaderListSize) {
            tooLarge = true;
        }
        return !tooLarge;
    }

    private int dynamicIndex(int index) throws Http2Exception {
        int dynamic = index - StaticTable.LENGTH - 1;
        if (dynamic >= table.length()) {
            throw error("index " + index + " beyond the dynamic table of " + table.length() + " entries");
        }
        return dynamic;
    }

    /** Reads a string literal (section 5.2) and points stringArray/Offset/Length at its octets. */
    private void readString(boolean materialize) throws Http2Exception {
        if (position >= end) {
            throw error("block ends where a string was expected");
        }
        boolean huffman = (in[position] & 0x80) != 0;
        int length = readInt(7);
        if (length > end - position) {
            throw error("string of " + length + " octets exceeds the " + (end - position) + " left in the block");
        }
        if (!materialize) {
            position += length;
            stringLength = 0;
            return;
        }
        if (!huffman) {
            stringArray = in;
            stringOffset = position;
            stringLength = length;
        } else {
            int offset = reserveScratch(Huffman.maxDecodedLength(length));
            stringLength = Huffman.decode(in, position, length, scratch, offset);
            scratchLength = offset + stringLength;
            stringArray = scratch;
            stringOffset = offset;
        }
        position += length;
    }

    /** Reads an integer with an N-bit prefix (section 5.1); values above 2^31-1 are refused. */
    private int readInt(int prefixBits) throws Http2Exception {
        int mask = (1 << prefixBits) - 1;
        int value = in[position++] & mask;
        if (value < mask) {
            return value;
        }
        long result = value;
        for (int shift = 0; ; shift += 7) {
            if (shift > 28) {
                throw error("integer longer than 5 continuation octets");
            }
            if (position >= end) {
                throw error("block ends inside an integer");
            }
            int octet = in[position++] & 0xff;
            result += (long) (octet & 0x7f) << shift;
            if (result > Integer.MAX_VALUE) {
                throw error("integer exceeds 2^31-1");
            }
            if ((octet & 0x80) == 0) {
                return (int) result;
            }
        }
    }

    /** Room for {@code length} more octets in the scratch array, keeping what is there; returns their offset. */
    private int reserveScratch(int length) {
        int offset = scratchLength;
        int needed = offset + length;
        if (scratch == null || needed > scratch.length) {
            byte[] larger = new byte[Math.max(needed, Math.max(256, scratch == null ? 0 : 2 * scratch.length))];
            if (scratch != null) {
                System.arraycopy(scratch, 0, larger, 0, offset);
            }
            scratch = larger;
        }
        scratchLength = needed;
        return offset;
    }

    private static Http2Exception error(String message) {
        return Http2Exception.connectionError(COMPRESSION_ERROR, message);
    }
}
