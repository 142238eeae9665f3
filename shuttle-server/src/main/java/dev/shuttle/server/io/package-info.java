/**
 * Socket plumbing shared by server protocols (not exported): the readiness watcher that parks idle connections, its
 * deadline queue, the write watchdog, the buffer pool, and the socket source and sink the codec reads and writes.
 */
package dev.shuttle.server.io;
