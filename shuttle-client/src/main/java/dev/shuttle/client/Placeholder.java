package dev.shuttle.client;

/** Placeholder until the module has its first real class; delete it then. */
final class Placeholder {
    private Placeholder() {
    }
}
