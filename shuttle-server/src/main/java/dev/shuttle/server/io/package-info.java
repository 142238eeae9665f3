/**
 * A server connection's application-level input and output over its transport (not exported): the pooled read buffer
 * the codecs parse in place, with header deadlines and body read timeouts, and the pooled write buffer.
 */
package dev.shuttle.server.io;
