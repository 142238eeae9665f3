/**
 * The HTTP/1.1 engine (not exported): acceptor, connection state machine and serve loop, exchange (request, response,
 * the unread-body rule), and the connection registry behind stats and the listener.
 */
package dev.shuttle.server.http1;
