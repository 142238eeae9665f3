package dev.shuttle.lab.servers;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http2.Http2Protocol;

/**
 * Embedded Tomcat 11, NIO connector, default thread pool, one servlet. HTTP/2 is Tomcat's upgrade protocol on the
 * cleartext connector, which also accepts a connection that starts with the preface (prior knowledge). Three Tomcat
 * defaults would end the measurement early and are lifted: {@code maxConnections} (8192), {@code
 * maxKeepAliveRequests} (100 per HTTP/1.1 connection) and the keep-alive timeouts (60 s; HTTP/2 20 s).
 */
final class TomcatTarget implements ServerTarget {
    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        Path base = Files.createTempDirectory("shuttle-lab-tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("acceptCount", Integer.toString(settings.backlog()));
        connector.setProperty("maxConnections", "-1");
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setProperty("keepAliveTimeout", Integer.toString(settings.idleTimeoutMillis()));
        if (protocol == Protocol.H2C) {
            Http2Protocol http2 = new Http2Protocol();
            http2.setMaxConcurrentStreams(settings.maxConcurrentStreams());
            http2.setInitialWindowSize(settings.initialWindowSize());
            http2.setKeepAliveTimeout(settings.idleTimeoutMillis());
            connector.addUpgradeProtocol(http2);
        }
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.toString());
        Tomcat.addServlet(context, "hello", new Hello());
        context.addServletMappingDecoded("/", "hello");
        tomcat.start();
        return new RunningServer() {
            @Override
            public int port() {
                return connector.getLocalPort();
            }

            @Override
            public void close() throws Exception {
                tomcat.stop();
                tomcat.destroy();
            }
        };
    }

    static final class Hello extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setContentType("text/plain");
            response.setContentLength(ServerSettings.BODY.length);
            response.getOutputStream().write(ServerSettings.BODY);
        }
    }
}
