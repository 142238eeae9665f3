package dev.shuttle.lab.servers;

import java.io.InputStream;
import java.nio.file.Path;

/**
 * The main class of a server-under-test JVM, started by the lab: {@code ServerMain SERVER PROTOCOL [KEY_STORE]} (the
 * key store over TLS, see {@link LabTls}). Prints
 * {@code PORT n} on stdout when the server accepts connections (or {@code ERROR message} and exits with 2), then
 * serves until its standard input closes: when the lab closes the pipe, or dies, the server goes too. Everything
 * the lab measures it measures from outside (/proc, jcmd), so this process runs nothing but the server.
 */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 3) {
            System.out.println("ERROR usage: ServerMain SERVER PROTOCOL [PKCS12_KEY_STORE]");
            System.exit(2);
        }
        RunningServer server;
        try {
            ServerKind kind = ServerKind.byName(args[0]);
            ServerSettings settings = args.length == 3
                    ? ServerSettings.DEFAULTS.withKeyStore(Path.of(args[2])) : ServerSettings.DEFAULTS;
            server = kind.target().start(Protocol.parse(args[1]), settings);
        } catch (Exception | LinkageError e) {
            System.out.println("ERROR " + oneLine(e));
            System.out.flush();
            e.printStackTrace();
            System.exit(2);
            return;
        }
        System.out.println("PORT " + server.port());
        System.out.flush();
        InputStream in = System.in;
        while (in.read() != -1) {
            // the lab writes nothing; EOF is the signal to stop
        }
        try {
            server.close();
        } catch (Exception e) {
            // exiting anyway
        }
        System.exit(0);
    }

    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return message.replace('\n', ' ').replace('\r', ' ');
    }
}
