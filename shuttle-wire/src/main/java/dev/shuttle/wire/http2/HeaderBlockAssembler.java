package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2ErrorCode.ENHANCE_YOUR_CALM;
import static dev.shuttle.wire.http2.Http2ErrorCode.PROTOCOL_ERROR;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Joins a field block split over HEADERS (or PUSH_PROMISE) and CONTINUATION frames (RFC 9113 section 4.3), with
 * bounds. Sits between {@link Http2FrameReader} and the connection: every frame read goes through
 * {@link #accept(Http2Frame)}, and what comes out never contains a CONTINUATION. One per connection, owned by the
 * reading thread.
 *
 * <p>A block in one frame (END_HEADERS set, by far the common case) passes through untouched: no copy. Only a block
 * that continues is copied, into an array that grows with the fragments up to {@code maxBlockBytes} and is dropped
 * as soon as the block is complete, so an idle connection holds nothing here.
 *
 * <p><b>CONTINUATION floods</b> (CVE-2024-27316 in Apache httpd, CVE-2023-45288 in Go, CVE-2024-24549 in Tomcat and
 * their siblings): a peer opens a block and never ends it, sending CONTINUATION after CONTINUATION, possibly empty
 * ones. Two bounds stop it: the joined block may not exceed {@code maxBlockBytes}, and the number of CONTINUATION
 * frames, empty ones included, may not exceed {@code maxContinuationFrames}. Either way the result is a connection
 * error ENHANCE_YOUR_CALM: the block cannot be decoded, so the HPACK state can no longer follow the peer and the
 * connection has to go (section 10.5.1 says a block must be processed unless the connection is closed). The caller
 * should send GOAWAY (ENHANCE_YOUR_CALM, the last stream id it processed) and close without waiting for more input.
 * A block merely larger than the advertised SETTINGS_MAX_HEADER_LIST_SIZE is <em>not</em> this case: keep
 * {@code maxBlockBytes} above that setting, so such a block is decoded and answered with 431 or RST_STREAM while the
 * connection lives on (see {@link Http2Limits}).
 */
public final class HeaderBlockAssembler {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final int maxBlockBytes;
    private final int maxContinuationFrames;

    // All fields below are owned by the reading thread. Between blocks: opening == null, block == null.
    /** The HEADERS or PUSH_PROMISE that opened the block in progress, with an empty fragment; or null. */
    private Http2Frame opening;
    /** Fragments so far; null between blocks. */
    private byte[] block;
    private int blockLength;
    private int continuations;

    /**
     * @param maxBlockBytes         largest joined field block, in octets (compressed, as received)
     * @param maxContinuationFrames largest number of CONTINUATION frames in one block, empty ones included
     */
    public HeaderBlockAssembler(int maxBlockBytes, int maxContinuationFrames) {
        if (maxBlockBytes <= 0 || maxContinuationFrames < 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxBlockBytes + ", "
                    + maxContinuationFrames);
        }
        this.maxBlockBytes = maxBlockBytes;
        this.maxContinuationFrames = maxContinuationFrames;
    }

    /** With the block bounds of {@code limits}. */
    public HeaderBlockAssembler(Http2Limits limits) {
        this(limits.maxHeaderBlockBytes(), limits.maxContinuationFrames());
    }

    /** True while a block is open and CONTINUATION frames are awaited. */
    public boolean inProgress() {
        return opening != null;
    }

    /**
     * Takes the next frame read from the connection.
     *
     * @return {@code frame} itself when it is not part of a split block (this includes a complete HEADERS or
     *         PUSH_PROMISE); null when it opened or continued a block that is not complete yet; or, on the last
     *         CONTINUATION, the opening HEADERS/PUSH_PROMISE with the whole block as its fragment and END_HEADERS
     *         set. The whole block is a heap buffer owned by the caller from then on.
     * @throws Http2Exception PROTOCOL_ERROR for a CONTINUATION out of place or another frame inside a block;
     *                        ENHANCE_YOUR_CALM when a bound is exceeded (both connection errors)
     */
    public Http2Frame accept(Http2Frame frame) throws Http2Exception {
        if (opening == null) {
            return switch (frame) {
                case ContinuationFrame c -> throw Http2Exception.connectionError(PROTOCOL_ERROR,
                        "CONTINUATION on stream " + c.streamId() + " without an open field block");
                case HeadersFrame h when !h.endHeaders() -> open(h, h.fragment(),
                        new HeadersFrame(h.streamId(), EMPTY, h.endStream(), false, h.priority(), h.padding()));
                case PushPromiseFrame p when !p.endHeaders() -> open(p, p.fragment(),
                        new PushPromiseFrame(p.streamId(), p.promisedStreamId(), EMPTY, false, p.padding()));
                case HeadersFrame h -> checkSize(h, h.fragment().remaining());
                case PushPromiseFrame p -> checkSize(p, p.fragment().remaining());
                default -> frame;
            };
        }
        if (!(frame instanceof ContinuationFrame continuation) || frame.streamId() != opening.streamId()) {
            throw Http2Exception.connectionError(PROTOCOL_ERROR, "frame type " + frame.type() + " on stream "
                    + frame.streamId() + " inside the field block of stream " + opening.streamId());
        }
        if (++continuations > maxContinuationFrames) {
            throw Http2Exception.connectionError(ENHANCE_YOUR_CALM, "field block of stream " + opening.streamId()
                    + " continues over more than " + maxContinuationFrames + " CONTINUATION frames");
        }
        append(continuation.fragment());
        return continuation.endHeaders() ? complete() : null;
    }

    private Http2Frame open(Http2Frame frame, ByteBuffer fragment, Http2Frame withoutFragment)
            throws Http2Exception {
        checkSize(frame, fragment.remaining());
        opening = withoutFragment;
        continuations = 0;
        blockLength = 0;
        block = new byte[Math.max(256, Math.min(maxBlockBytes, 2 * fragment.remaining()))];
        append(fragment);
        return null;
    }

    private void append(ByteBuffer fragment) throws Http2Exception {
        int length = fragment.remaining();
        checkSize(opening, (long) blockLength + length);
        if (blockLength + length > block.length) {
            block = Arrays.copyOf(block, (int) Math.min(maxBlockBytes,
                    Math.max((long) blockLength + length, 2L * block.length)));
        }
        fragment.get(fragment.position(), block, blockLength, length);
        blockLength += length;
    }

    private Http2Frame complete() {
        ByteBuffer whole = ByteBuffer.wrap(block, 0, blockLength);
        Http2Frame result = switch (opening) {
            case HeadersFrame h -> new HeadersFrame(h.streamId(), whole, h.endStream(), true, h.priority(),
                    h.padding());
            case PushPromiseFrame p -> new PushPromiseFrame(p.streamId(), p.promisedStreamId(), whole, true,
                    p.padding());
            default -> throw new IllegalStateException("opened by " + opening);
        };
        opening = null;
        block = null;
        blockLength = 0;
        continuations = 0;
        return result;
    }

    private <F extends Http2Frame> F checkSize(F frame, long length) throws Http2Exception {
        if (length > maxBlockBytes) {
            throw Http2Exception.connectionError(ENHANCE_YOUR_CALM, "field block of stream " + frame.streamId()
                    + " exceeds " + maxBlockBytes + " octets");
        }
        return frame;
    }
}
