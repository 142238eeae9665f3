package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.wire.HttpVersion;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shuttle's HTTP/2 client against Netty 4.2's HTTP/2 codec, h2c with prior knowledge: Netty's frame codec and
 * multiplexer with a handler per stream that answers the path, or echoes the request body for a POST.
 */
class NettyInteropTest {
    private EventLoopGroup group;
    private Channel server;

    @BeforeEach
    void start() throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(Http2FrameCodecBuilder.forServer()
                                        .initialSettings(io.netty.handler.codec.http2.Http2Settings.defaultSettings()
                                                .maxConcurrentStreams(250))
                                        .build(),
                                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                    @Override
                                    protected void initChannel(Http2StreamChannel stream) {
                                        stream.pipeline().addLast(new Answer());
                                    }
                                }));
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close().sync();
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + path;
    }

    /** One stream: collects the request, then answers with the path (GET) or the body (POST). */
    private static final class Answer extends ChannelInboundHandlerAdapter {
        private String path;
        private ByteBuf body = Unpooled.buffer();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            if (message instanceof Http2HeadersFrame headers) {
                path = headers.headers().path().toString();
                if (headers.isEndStream()) {
                    answer(ctx, Unpooled.copiedBuffer("netty " + path, StandardCharsets.UTF_8));
                }
            } else if (message instanceof Http2DataFrame data) {
                body.writeBytes(data.content());
                data.release();
                if (data.isEndStream()) {
                    answer(ctx, body);
                    body = null;
                }
            }
        }

        private static void answer(ChannelHandlerContext ctx, ByteBuf content) {
            Http2Headers headers = new DefaultHttp2Headers().status("200")
                    .setInt("content-length", content.readableBytes());
            ctx.write(new DefaultHttp2HeadersFrame(headers, false));
            ctx.writeAndFlush(new DefaultHttp2DataFrame(content, true));
        }
    }

    @Test
    void getAndPostOverH2cWithPriorKnowledge() throws Exception {
        byte[] upload = new byte[3 << 20];
        new Random(3).nextBytes(upload);
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            try (Response response = client.send(Request.get(url("/netty")))) {
                assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(response.string()).isEqualTo("netty /netty");
            }
            try (Response echo = client.send(Request.newBuilder(url("/echo"))
                    .POST(BodyPublisher.ofBytes(upload)).build())) {
                assertThat(Arrays.equals(echo.bytes(), upload)).as("3 MiB echoed").isTrue();
                assertThat(echo.connection().reused()).isTrue();
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void twoHundredConcurrentStreamsShareOneConnectionThatAllows250() throws Exception {
        AtomicInteger ok = new AtomicInteger();
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            // One request first, so the connection knows Netty's SETTINGS: it announces no stream limit.
            try (Response warmUp = client.send(Request.get(url("/warm")))) {
                warmUp.string();
            }
            int limit = ClientInternals.pool(client).multiplexedConnections(
                    dev.shuttle.client.Origin.of(java.net.URI.create(url("/")))).get(0).streamCapacity();
            assertThat(limit).as("Netty's SETTINGS_MAX_CONCURRENT_STREAMS, as configured below").isEqualTo(250);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String path = "/s" + i;
                threads.add(Thread.ofVirtual().start(() -> {
                    try (Response response = client.send(Request.get(url(path)))) {
                        if (response.string().equals("netty " + path)) {
                            ok.incrementAndGet();
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join(java.time.Duration.ofSeconds(20));
            }
            assertThat(ok.get()).isEqualTo(200);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }
}
