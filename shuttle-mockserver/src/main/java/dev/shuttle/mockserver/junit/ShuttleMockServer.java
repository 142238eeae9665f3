package dev.shuttle.mockserver.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Injects a started {@link dev.shuttle.mockserver.MockServer} into each test (and its {@code @BeforeEach} /
 * {@code @AfterEach} methods: one server per test) and closes it after the test. Put it on a test class, a test
 * method or the parameter itself; the nearest one sets the options.
 *
 * <pre>
 * &#64;ShuttleMockServer
 * class ClientReuseTest {
 *     &#64;Test
 *     void oneConnection(MockServer server) throws Exception { ... }
 *
 *     &#64;Test
 *     void overTls(&#64;ShuttleMockServer(tls = true) MockServer server) throws Exception { ... }
 * }
 * </pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.PARAMETER})
@ExtendWith(MockServerExtension.class)
public @interface ShuttleMockServer {
    /**
     * HTTPS with a generated certificate; clients trust {@code server.clientContext()}.
     *
     * @return whether the server speaks TLS
     */
    boolean tls() default false;

    /**
     * Offer HTTP/2 (h2c, and h2 over TLS).
     *
     * @return whether the server offers HTTP/2
     */
    boolean http2() default false;

    /** {@return the raw HTTP/1.1 engine, which can send TCP resets} */
    boolean rawHttp1() default false;

    /**
     * Idle timeout of kept-alive connections, in milliseconds.
     *
     * @return the idle timeout in milliseconds
     */
    long idleTimeoutMillis() default 60_000;
}
