package dev.shuttle.lab;

import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.relay.DialDelayRelay;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shuttle serve}: the fixture server on its own, until Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Start the fixture server on 127.0.0.1 (the endpoints of every lab case) and wait for Ctrl-C.")
final class ServeCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8080",
            description = "Port on 127.0.0.1; 0 picks a free one and prints it (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dial-delay", defaultValue = "0ms", converter = DurationConverter.class,
            description = "Also start the dial-delay relay in front of the fixture, e.g. 20ms.")
    Duration dialDelay;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            System.err.println("shuttle serve: port must be in 0..65535, got " + port);
            return 2;
        }
        FixtureServer fixture = FixtureServer.start(port);
        DialDelayRelay relay = dialDelay.isZero() ? null : new DialDelayRelay(fixture.address(), dialDelay).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (relay != null) {
                relay.close();
            }
            fixture.close();
            stopped.countDown();
        }, "shuttle-serve-shutdown"));
        System.out.println("fixture server listening on http://127.0.0.1:" + fixture.port() + "/");
        if (relay != null) {
            System.out.println("dial-delay relay (" + dialDelay.toMillis() + " ms per new connection) on http://"
                    + "127.0.0.1:" + relay.port() + "/");
        }
        System.out.println("""
                endpoints: /bytes?n=N  /chunked?n=N  /pause?ms=P&n=N  /tail?ms=T&n=N  /close?n=N  /json
                           /json-chunked  /json-late-end?ms=L  /throttle?n=N&bps=R   (Ctrl-C to stop)""");
        System.out.flush();
        stopped.await();
        return 0;
    }
}
