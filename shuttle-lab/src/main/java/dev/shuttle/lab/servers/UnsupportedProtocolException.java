package dev.shuttle.lab.servers;

/** A server cannot be measured over the requested protocol; the message is one line for the user. */
public final class UnsupportedProtocolException extends RuntimeException {
    public UnsupportedProtocolException(String message) {
        super(message);
    }
}
