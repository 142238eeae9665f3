/**
 * HTTP/1.1 (not exported): the session's serve loop with keep-alive turns and the unread-body rule, and one exchange's
 * request, response and their body streams.
 */
package dev.shuttle.server.http1;
