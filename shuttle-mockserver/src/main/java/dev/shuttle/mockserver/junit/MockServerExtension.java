package dev.shuttle.mockserver.junit;

import dev.shuttle.mockserver.MockServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link MockServer} parameters: one server per test and set of options, started on first use and closed
 * when the test's extension context closes (after {@code @AfterEach}). Registered by {@link ShuttleMockServer}.
 */
public final class MockServerExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(MockServerExtension.class);

    /** Made by JUnit, through {@link ShuttleMockServer}'s {@code @ExtendWith}; holds no state of its own. */
    public MockServerExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MockServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ShuttleMockServer options = parameter.findAnnotation(ShuttleMockServer.class)
                .or(() -> find(context.getTestMethod()))
                .or(() -> find(context.getTestClass()))
                .orElse(null);
        String key = options == null ? "default"
                : "tls=" + options.tls() + ",http2=" + options.http2() + ",raw=" + options.rawHttp1()
                + ",idle=" + options.idleTimeoutMillis();
        Running running = context.getStore(NAMESPACE).getOrComputeIfAbsent(key, k -> start(options), Running.class);
        return running.server();
    }

    private static <T extends AnnotatedElement> Optional<ShuttleMockServer> find(Optional<T> element) {
        return element.flatMap(e -> AnnotationSupport.findAnnotation(e, ShuttleMockServer.class));
    }

    private static Running start(ShuttleMockServer options) {
        MockServer.Builder builder = MockServer.builder();
        if (options != null) {
            if (options.tls()) {
                builder.tls();
            }
            if (options.http2()) {
                builder.http2();
            }
            if (options.rawHttp1()) {
                builder.rawHttp1();
            }
            builder.idleTimeout(Duration.ofMillis(options.idleTimeoutMillis()));
        }
        try {
            return new Running(builder.start());
        } catch (IOException e) {
            throw new ParameterResolutionException("could not start the mock server", new UncheckedIOException(e));
        }
    }

    /** Closed by JUnit with the test's store. */
    private record Running(MockServer server) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            server.close();
        }
    }
}
