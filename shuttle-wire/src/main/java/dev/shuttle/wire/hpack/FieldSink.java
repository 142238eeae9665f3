package dev.shuttle.wire.hpack;

/**
 * Receives the fields of a decoded block, in order. Must not throw: the decoder must finish every block to keep its
 * dynamic table in step with the peer's encoder, so a sink that finds a field malformed records it and reports later
 * (as {@code Http2FieldCollector.field} does).
 */
@FunctionalInterface
public interface FieldSink {
    /** One field: lower-case name as sent (pseudo-header names start with ':'), value as Latin-1 text. */
    void field(String name, String value);
}
