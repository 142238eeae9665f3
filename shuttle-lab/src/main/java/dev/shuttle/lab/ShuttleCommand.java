package dev.shuttle.lab;

/** Entry point of the {@code shuttle} command. */
public final class ShuttleCommand {
    private ShuttleCommand() {
    }

    public static void main(String[] args) {
        System.err.println("shuttle: not built yet");
        System.exit(2);
    }
}
