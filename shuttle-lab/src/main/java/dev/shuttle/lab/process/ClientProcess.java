package dev.shuttle.lab.process;

import dev.shuttle.lab.load.LoadMain;
import dev.shuttle.lab.servers.LabTls;
import dev.shuttle.lab.servers.Protocol;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The lab's client in its own JVM ({@link LoadMain}): the idle holder of {@code lab idle} or the load generator of
 * {@code lab busy}, so that the server's process holds only its own half of each connection.
 */
public final class ClientProcess implements AutoCloseable {
    private final ChildJvm jvm;

    private ClientProcess(ChildJvm jvm) {
        this.jvm = jvm;
    }

    public static ClientProcess start(String mode, Protocol protocol, int port, List<String> more, Path logDir)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(mode, protocol.cliName(), Integer.toString(port)));
        args.addAll(more);
        if (protocol.isTls()) {
            args.add(LabTls.in(logDir).authorityPem().toString()); // LoadMain: over TLS the last argument
        }
        return new ClientProcess(ChildJvm.start("client-" + mode, JvmFlags.CLIENT, LoadMain.class.getName(), args,
                logDir));
    }

    /** Idle holder: opens {@code count} more connections, one request each; returns the answer line. */
    public String open(int count, Duration timeout) throws IOException, InterruptedException {
        jvm.send("open " + count);
        return jvm.await(timeout, "held ");
    }

    /** Idle holder: "open X closed Y". */
    public String status() throws IOException, InterruptedException {
        jvm.send("status");
        return jvm.await(Duration.ofSeconds(30), "open ");
    }

    public String await(Duration timeout, String... prefixes) throws IOException, InterruptedException {
        return jvm.await(timeout, prefixes);
    }

    public String poll(Duration timeout, String... prefixes) throws IOException, InterruptedException {
        return jvm.poll(timeout, prefixes);
    }

    @Override
    public void close() {
        jvm.close();
    }
}
