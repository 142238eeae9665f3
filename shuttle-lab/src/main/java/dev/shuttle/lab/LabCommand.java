package dev.shuttle.lab;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code shuttle lab}: the experiments. */
@Command(name = "lab", mixinStandardHelpOptions = true, description = "Run an experiment.",
        subcommands = {LabReuseCommand.class, LabPoolCommand.class, LabIdleCommand.class, LabBusyCommand.class,
                LabProxyCommand.class})
final class LabCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
