package dev.shuttle.server;

/** Placeholder until the module has its first real class; delete it then. */
final class Placeholder {
    private Placeholder() {
    }
}
