package dev.shuttle.wire.http2;

/**
 * The client stream ids a client skipped: opening stream 7 after stream 1 closes 3 and 5 for good without their ever
 * being opened (RFC 9113 5.1.1), so HEADERS on 3 later is an unexpected id (PROTOCOL_ERROR), where HEADERS on 1 is a
 * frame on a closed stream (STREAM_CLOSED). Real clients skip no ids, so a few ranges are kept; once more ranges than
 * that were skipped, the oldest are forgotten, and a frame on one of those gets STREAM_CLOSED: still a connection
 * error, with the other code. Not thread-safe: guarded by the connection's lock.
 */
public final class SkippedStreamIds {
    /** Ranges kept: enough for a client that skips ids now and then, a fixed size whatever a client does. */
    static final int RANGES = 8;

    /** Each range from its first to its last skipped odd id, inclusive; 0 where empty; a ring of {@link #RANGES}. */
    private final int[] first = new int[RANGES];
    private final int[] last = new int[RANGES];
    private int next;

    /** The client opened {@code id} when the highest id it had opened before was {@code previous} (0 for none). */
    public void opened(int previous, int id) {
        int lowestSkipped = previous == 0 ? 1 : previous + 2;
        if (id > lowestSkipped) {
            first[next] = lowestSkipped;
            last[next] = id - 2;
            next = (next + 1) % RANGES;
        }
    }

    public boolean contains(int id) {
        for (int i = 0; i < RANGES; i++) {
            if (first[i] != 0 && id >= first[i] && id <= last[i]) {
                return true;
            }
        }
        return false;
    }
}
