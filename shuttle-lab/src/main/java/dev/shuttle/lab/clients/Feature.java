package dev.shuttle.lab.clients;

/**
 * What a {@code lab reuse} case needs from a client besides plain GETs: the everyday features each of which is a
 * place where connections get wasted. A client that lacks one is left out of that case's row.
 */
public enum Feature {
    /** Follows a chain of redirects by itself. */
    REDIRECTS,
    /** Asks for gzip and decodes it by itself. */
    GZIP,
    /** Sends requests through an HTTP proxy. */
    PROXY,
    /** Cancels a call while its body is being read. */
    CANCEL
}
