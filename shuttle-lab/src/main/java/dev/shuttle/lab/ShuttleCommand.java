package dev.shuttle.lab;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code shuttle} command. */
@Command(name = "shuttle", mixinStandardHelpOptions = true, version = "shuttle 0.1.0-SNAPSHOT",
        description = "Shuttle Lab: measures HTTP/1.1 connection reuse when callers close response bodies unread, "
                + "for Shuttle and the Java clients people use.",
        subcommands = {LabCommand.class, ServeCommand.class, ProxyCommand.class, ProbeCommand.class,
                GetCommand.class, CommandLine.HelpCommand.class})
public final class ShuttleCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, also used by tests. */
    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new ShuttleCommand());
        line.setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
            commandLine.getErr().println("shuttle: " + (exception.getMessage() == null ? exception.toString()
                    : exception.getMessage()));
            return 1;
        });
        return line;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
