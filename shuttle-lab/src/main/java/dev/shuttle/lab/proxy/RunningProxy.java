package dev.shuttle.lab.proxy;

/** A proxy under test, listening on 127.0.0.1 in front of the lab's upstream. */
interface RunningProxy extends AutoCloseable {
    int port();

    /** What ran, for the report: {@code nginx/1.22.1}, {@code go1.19.8}. */
    String version();

    @Override
    void close();
}
