package dev.shuttle.lab.clients;

/**
 * What one call returned to the caller.
 *
 * @param status        the HTTP status code
 * @param bodyBytesRead body bytes the caller itself read (0 when closed unread); bytes a client drains on its own
 *                      are not counted here
 */
public record CallResult(int status, long bodyBytesRead) {
}
