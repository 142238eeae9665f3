package dev.shuttle.wire.http2;

/**
 * The ids of the last {@link #SIZE} streams this side reset or refused after they left its stream table. Frames the
 * peer sent before it saw our RST_STREAM still arrive on them; RFC 9113 5.1 and 5.4.2 have them ignored, not answered
 * as frames on a closed stream (which would count against the peer's budgets, and for HEADERS end the connection).
 * Frames on a stream reset longer ago are answered as on any closed stream (5.4.2 lets an endpoint limit the period).
 *
 * <p>Not thread-safe: guarded by the connection's lock.
 */
public final class RecentResets {
    /** 256: two of the default 128 concurrent streams' worth. */
    public static final int SIZE = 256;

    /** A ring; 0 where empty. */
    private final int[] ids = new int[SIZE];
    private int next;

    public void add(int streamId) {
        ids[next] = streamId;
        next = (next + 1) % SIZE;
    }

    public boolean contains(int streamId) {
        for (int id : ids) {
            if (id == streamId) {
                return true;
            }
        }
        return false;
    }
}
