package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.mockserver.junit.ShuttleMockServer;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@ShuttleMockServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MockServerExtensionTest {
    private static MockServer fromFirstTest;
    private MockServer fromBeforeEach;

    @BeforeEach
    void setUp(MockServer server) {
        fromBeforeEach = server;
    }

    @Test
    @Order(1)
    void injectsOneStartedServerPerTest(MockServer server) throws Exception {
        assertThat(server).isSameAs(fromBeforeEach);
        assertThat(server.isTls()).isFalse();
        server.enqueue(MockResponse.text("hi"));
        try (RawHttp client = new RawHttp(server.port())) {
            assertThat(client.get("/").status()).isEqualTo(200);
        }
        fromFirstTest = server;
    }

    @Test
    @Order(2)
    void theNextTestGetsAFreshServerAndThePreviousIsClosed(MockServer server) {
        assertThat(server).isNotSameAs(fromFirstTest);
        assertThat(server.requests()).isZero();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), fromFirstTest.port()).close())
                .isInstanceOf(ConnectException.class);
    }

    @Test
    @Order(3)
    void theParameterAnnotationWins(@ShuttleMockServer(tls = true, http2 = true) MockServer server) {
        assertThat(server.isTls()).isTrue();
        assertThat(server.isHttp2()).isTrue();
        assertThat(server.url("/x").toString()).isEqualTo("https://127.0.0.1:" + server.port() + "/x");
    }

    @AfterAll
    static void serversAreClosed() {
        assertThat(fromFirstTest).isNotNull();
    }
}
