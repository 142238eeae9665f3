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
    JSON_DECODE
}
