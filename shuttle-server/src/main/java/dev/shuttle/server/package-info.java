/** The public server API: {@code HttpServer}, its handler, request, response and connection-state listener. */
package dev.shuttle.server;
