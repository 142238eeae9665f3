package dev.shuttle.benchmarks.server;

/** A server under measurement, listening on 127.0.0.1. */
interface BenchmarkServer extends AutoCloseable {
    int port();
}
