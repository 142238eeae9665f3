package dev.shuttle.wire.hpack;

import java.nio.charset.StandardCharsets;

/**
 * The HPACK dynamic table (RFC 7541 sections 2.3.2 and 4), kept compact: all names and values as octets in one ring
 * of bytes, and five ints per entry in a second ring, with no object per entry. Both rings grow by doubling with what
 * is stored (never preallocated to the maximum size), and both are dropped when the table empties. With the default
 * 4096-octet limit the octet ring never exceeds 4 KiB, since entries cost 32 octets more than their text.
 *
 * <p>Offsets are logical: an entry's octets live at {@code offset & (capacity - 1)}, so growing the ring copies the
 * octets without rewriting the offsets, and int overflow of the offsets is harmless because capacities are powers
 * of two. Index 0 is the newest entry (HPACK index 62).
 *
 * <p>Each entry also keeps the {@link String#hashCode()} of its name and value (computed over the octets as Latin-1),
 * so the encoder can search by hash before comparing text, and the decoder can find a name's shared constant.
 *
 * <p>Owned by one encoder or decoder; not thread-safe.
 */
final class DynamicTable {
    static final int ENTRY_OVERHEAD = 32;
    private static final int INTS_PER_ENTRY = 5;
    private static final int START = 0;
    private static final int NAME_LENGTH = 1;
    private static final int VALUE_LENGTH = 2;
    private static final int NAME_HASH = 3;
    private static final int VALUE_HASH = 4;
    private static final int MIN_OCTETS = 64;
    private static final int MIN_ENTRIES = 4;

    /** Ring of name and value octets; null while the table is empty. */
    private byte[] octets;
    /** Ring of entries, INTS_PER_ENTRY ints each; null while the table is empty. */
    private int[] entries;
    /** Logical offset of the oldest entry's first octet. */
    private int firstOctet;
    private int usedOctets;
    /** Logical number of the oldest entry. */
    private int firstEntry;
    private int count;
    /** Size as RFC 7541 section 4.1 counts it: name + value + 32 per entry. */
    private int size;
    private int maxSize;

    DynamicTable(int maxSize) {
        setMaxSize(maxSize);
    }

    int length() {
        return count;
    }

    int size() {
        return size;
    }

    int maxSize() {
        return maxSize;
    }

    /** Changes the maximum size, evicting the oldest entries until the table fits. */
    void setMaxSize(int maxSize) {
        if (maxSize < 0) {
            throw new IllegalArgumentException("negative table size " + maxSize);
        }
        this.maxSize = maxSize;
        while (size > maxSize) {
            evictOldest();
        }
        if (count == 0) {
            release();
        } else if (octets.length > ceilPowerOfTwo(Math.max(MIN_OCTETS, maxSize))) {
            resize(ceilPowerOfTwo(Math.max(MIN_OCTETS, usedOctets)), entries.length / INTS_PER_ENTRY);
        }
    }

    /**
     * Adds an entry, evicting old ones to make room (RFC 7541 section 4.4). An entry larger than the maximum size
     * empties the table and is not added. The caller must not pass octets that live in this table.
     */
    void add(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength) {
        int start = reserve(nameLength, valueLength);
        if (start == -1) {
            return;
        }
        copyIn(start, name, nameOffset, nameLength);
        copyIn(start + nameLength, value, valueOffset, valueLength);
        record(start, nameLength, valueLength, KnownNames.hash(name, nameOffset, nameLength),
                KnownNames.hash(value, valueOffset, valueLength));
    }

    /** Adds an entry from Latin-1 text (the encoder's side). */
    void add(String name, String value) {
        int start = reserve(name.length(), value.length());
        if (start == -1) {
            return;
        }
        copyIn(start, name);
        copyIn(start + name.length(), value);
        record(start, name.length(), value.length(), name.hashCode(), value.hashCode());
    }

    int nameLength(int index) {
        return entries[base(index) + NAME_LENGTH];
    }

    int valueLength(int index) {
        return entries[base(index) + VALUE_LENGTH];
    }

    /** The name, as a shared constant when it is a well-known one. */
    String name(int index) {
        int base = base(index);
        int length = entries[base + NAME_LENGTH];
        int at = entries[base + START] & mask();
        if (at + length <= octets.length) {
            return KnownNames.intern(octets, at, length, entries[base + NAME_HASH]);
        }
        byte[] joined = new byte[length];
        copyOut(entries[base + START], length, joined, 0);
        return KnownNames.intern(joined, 0, length, entries[base + NAME_HASH]);
    }

    String value(int index) {
        int base = base(index);
        int length = entries[base + VALUE_LENGTH];
        int start = entries[base + START] + entries[base + NAME_LENGTH];
        int at = start & mask();
        if (at + length <= octets.length) {
            return new String(octets, at, length, StandardCharsets.ISO_8859_1);
        }
        byte[] joined = new byte[length];
        copyOut(start, length, joined, 0);
        return new String(joined, StandardCharsets.ISO_8859_1);
    }

    /** Copies the name's octets to {@code target}, e.g. before adding an entry that may evict this one. */
    void copyName(int index, byte[] target, int offset) {
        int base = base(index);
        copyOut(entries[base + START], entries[base + NAME_LENGTH], target, offset);
    }

    /** Newest entry whose name and value are these, or -1. */
    int indexOf(String name, String value) {
        int nameHash = name.hashCode();
        int valueHash = value.hashCode();
        for (int index = 0; index < count; index++) {
            int base = base(index);
            if (entries[base + NAME_HASH] == nameHash && entries[base + VALUE_HASH] == valueHash
                    && equalsText(entries[base + START], entries[base + NAME_LENGTH], name)
                    && equalsText(entries[base + START] + entries[base + NAME_LENGTH],
                    entries[base + VALUE_LENGTH], value)) {
                return index;
            }
        }
        return -1;
    }

    /** Newest entry whose name is this, or -1. */
    int indexOfName(String name) {
        int nameHash = name.hashCode();
        for (int index = 0; index < count; index++) {
            int base = base(index);
            if (entries[base + NAME_HASH] == nameHash
                    && equalsText(entries[base + START], entries[base + NAME_LENGTH], name)) {
                return index;
            }
        }
        return -1;
    }

    /** Octets held in the rings' arrays (for footprint tests). */
    int capacity() {
        return (octets == null ? 0 : octets.length) + (entries == null ? 0 : entries.length * Integer.BYTES);
    }

    /** Evicts to make room; returns the logical start for the entry's octets, or -1 if it does not fit at all. */
    private int reserve(int nameLength, int valueLength) {
        long entrySize = (long) nameLength + valueLength + ENTRY_OVERHEAD;
        if (entrySize > maxSize) {
            while (count > 0) {
                evictOldest();
            }
            release();
            return -1;
        }
        while (size + entrySize > maxSize) {
            evictOldest();
        }
        int needed = usedOctets + nameLength + valueLength;
        int entryCapacity = entries == null ? 0 : entries.length / INTS_PER_ENTRY;
        if (octets == null || needed > octets.length || count + 1 > entryCapacity) {
            resize(Math.max(octets == null ? 0 : octets.length, ceilPowerOfTwo(Math.max(MIN_OCTETS, needed))),
                    Math.max(entryCapacity, ceilPowerOfTwo(Math.max(MIN_ENTRIES, count + 1))));
        }
        return firstOctet + usedOctets;
    }

    private void record(int start, int nameLength, int valueLength, int nameHash, int valueHash) {
        int base = ((firstEntry + count) & (entries.length / INTS_PER_ENTRY - 1)) * INTS_PER_ENTRY;
        entries[base + START] = start;
        entries[base + NAME_LENGTH] = nameLength;
        entries[base + VALUE_LENGTH] = valueLength;
        entries[base + NAME_HASH] = nameHash;
        entries[base + VALUE_HASH] = valueHash;
        count++;
        usedOctets += nameLength + valueLength;
        size += nameLength + valueLength + ENTRY_OVERHEAD;
    }

    private void evictOldest() {
        int base = (firstEntry & (entries.length / INTS_PER_ENTRY - 1)) * INTS_PER_ENTRY;
        int octetCount = entries[base + NAME_LENGTH] + entries[base + VALUE_LENGTH];
        firstOctet += octetCount;
        usedOctets -= octetCount;
        size -= octetCount + ENTRY_OVERHEAD;
        firstEntry++;
        count--;
    }

    private void release() {
        octets = null;
        entries = null;
        firstOctet = 0;
        firstEntry = 0;
        usedOctets = 0;
    }

    /** Moves both rings to new arrays of the given capacities (powers of two), keeping logical positions. */
    private void resize(int octetCapacity, int entryCapacity) {
        byte[] newOctets = new byte[octetCapacity];
        for (int i = 0; i < usedOctets; i++) {
            int logical = firstOctet + i;
            newOctets[logical & (octetCapacity - 1)] = octets[logical & mask()];
        }
        int[] newEntries = new int[entryCapacity * INTS_PER_ENTRY];
        for (int i = 0; i < count; i++) {
            int logical = firstEntry + i;
            System.arraycopy(entries, (logical & (entries.length / INTS_PER_ENTRY - 1)) * INTS_PER_ENTRY,
                    newEntries, (logical & (entryCapacity - 1)) * INTS_PER_ENTRY, INTS_PER_ENTRY);
        }
        octets = newOctets;
        entries = newEntries;
    }

    private int base(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("dynamic table index " + index + " of " + count);
        }
        int logical = firstEntry + count - 1 - index;
        return (logical & (entries.length / INTS_PER_ENTRY - 1)) * INTS_PER_ENTRY;
    }

    private int mask() {
        return octets.length - 1;
    }

    private void copyIn(int start, byte[] source, int offset, int length) {
        int at = start & mask();
        int first = Math.min(length, octets.length - at);
        System.arraycopy(source, offset, octets, at, first);
        System.arraycopy(source, offset + first, octets, 0, length - first);
    }

    private void copyIn(int start, String text) {
        for (int i = 0; i < text.length(); i++) {
            octets[(start + i) & mask()] = (byte) text.charAt(i);
        }
    }

    private void copyOut(int start, int length, byte[] target, int offset) {
        int at = start & mask();
        int first = Math.min(length, octets.length - at);
        System.arraycopy(octets, at, target, offset, first);
        System.arraycopy(octets, 0, target, offset + first, length - first);
    }

    private boolean equalsText(int start, int length, String text) {
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((octets[(start + i) & mask()] & 0xff) != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int ceilPowerOfTwo(int value) {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
    }
}
