/**
 * The protocol-neutral server (not exported): accept, the connection state machine with protocol detection and TLS,
 * parking in the readiness watcher, the registry behind stats and the listener, graceful shutdown; and what every
 * protocol shares (the Date header, reason phrases).
 */
package dev.shuttle.server.core;
