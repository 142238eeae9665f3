package dev.shuttle.lab.process;

import dev.shuttle.lab.servers.LabTls;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import dev.shuttle.lab.servers.ServerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A server under test in its own JVM ({@link ServerMain}), with the same {@link JvmFlags#SERVER} as every other; over
 * TLS it is handed the lab's key store ({@link LabTls}, one per log directory, so the client finds its authority).
 */
public final class ServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final ChildJvm jvm;
    private final int port;

    private ServerProcess(ChildJvm jvm, int port) {
        this.jvm = jvm;
        this.port = port;
    }

    public static ServerProcess start(ServerKind kind, Protocol protocol, Path logDir)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(kind.cliName(), protocol.cliName()));
        if (protocol.isTls()) {
            args.add(LabTls.in(logDir).keyStore().toString());
        }
        ChildJvm jvm = ChildJvm.start("server-" + kind.cliName() + "-" + protocol, JvmFlags.SERVER,
                ServerMain.class.getName(), args, logDir);
        try {
            String line = jvm.await(START_TIMEOUT, "PORT ");
            return new ServerProcess(jvm, Integer.parseInt(line.substring(5).trim()));
        } catch (IOException | InterruptedException | RuntimeException e) {
            jvm.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return jvm.pid();
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    @Override
    public void close() {
        jvm.close();
    }
}
