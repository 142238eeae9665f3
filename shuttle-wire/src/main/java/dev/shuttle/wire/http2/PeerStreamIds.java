package dev.shuttle.wire.http2;

/**
 * The stream ids the peer opens (a server's view of its client's), by RFC 9113 5.1.1's rules: new ids only grow, an
 * id above every one opened is idle, a lower id skipped is closed for good without ever having been opened; and the
 * streams this side reset or refused lately, whose late frames are ignored ({@link RecentResets}). The records of
 * skipped and reset ids are made when first needed: real clients skip none, and most idle connections reset none.
 *
 * <p>Not thread-safe: guarded by the connection's lock.
 */
public final class PeerStreamIds {
    private int highest;
    private SkippedStreamIds skipped;
    private RecentResets resetByUs;

    /** The highest id the peer opened (or had refused): the last stream a GOAWAY can name. */
    public int highest() {
        return highest;
    }

    /** An id the peer has not used yet. */
    public boolean isIdle(int id) {
        return id > highest;
    }

    /** The peer used {@code id}, higher than any before (opened, or refused at once). */
    public void opened(int id) {
        if (id > (highest == 0 ? 1 : highest + 2)) {
            if (skipped == null) {
                skipped = new SkippedStreamIds();
            }
            skipped.opened(highest, id);
        }
        highest = Math.max(highest, id);
    }

    /** A lower id the peer skipped: never opened, and never to be (a frame opening it is a PROTOCOL_ERROR). */
    public boolean wasSkipped(int id) {
        return skipped != null && skipped.contains(id);
    }

    /** This side reset or refused {@code id}, which left the stream table. */
    public void resetByUs(int id) {
        if (resetByUs == null) {
            resetByUs = new RecentResets();
        }
        resetByUs.add(id);
    }

    public boolean wasResetByUs(int id) {
        return resetByUs != null && resetByUs.contains(id);
    }
}
