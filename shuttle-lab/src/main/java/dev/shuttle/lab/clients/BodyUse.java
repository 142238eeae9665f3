package dev.shuttle.lab.clients;

/** What the caller does with a response body before closing it: the seeds' three ways of using a body. */
public enum BodyUse {
    /** Look at the status only, then close the body the way the client's documentation says to abandon one. */
    CLOSE_UNREAD,
    /** Read the body to its end, then close it: the control, reuse must always work. */
    READ_TO_EOF,
    /**
     * Decode one JSON value with Jackson's streaming parser (which stops after the closing '}', as Go's
     * json.Decoder does), then close the body without asking for more.
     */
    JSON_DECODE,
    /**
     * Read the first {@link BodyConsumer#CANCEL_AFTER_BYTES} bytes, then cancel the call the client's way (a cancelled
     * future, {@code Call.cancel()}, {@code abort}), while the rest is on its way.
     */
    CANCEL_MID_BODY
}
