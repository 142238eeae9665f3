package dev.shuttle.wire.http2;

/**
 * The priority fields of a PRIORITY frame or of a HEADERS frame with the PRIORITY flag (RFC 9113 section 5.3.1,
 * RFC 7540 section 5.3). RFC 9113 deprecates this signalling; Shuttle parses and checks it (a peer may still send it)
 * but gives it no meaning.
 *
 * @param dependency the stream this one depends on (31 bits; the reader clears the reserved bit)
 * @param exclusive  the E flag
 * @param weight     1..256 (the wire carries weight - 1)
 */
public record Priority(int dependency, boolean exclusive, int weight) {
    /** Size of the fields on the wire. */
    public static final int LENGTH = 5;

    public Priority {
        Http2Frame.checkStreamId(dependency, true);
        if (weight < 1 || weight > 256) {
            throw new IllegalArgumentException("weight must be 1..256: " + weight);
        }
    }
}
