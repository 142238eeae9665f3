package dev.shuttle.lab.servers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;

/**
 * Netty 4.2 on NIO with its default event loop size, as an application would write it: {@code Http2FrameCodec}
 * directly in the pipeline (prior knowledge, no upgrade) and one handler answering on the connection's channel, or
 * {@code HttpServerCodec} for HTTP/1.1. Netty has no idle timeout unless one adds a handler, so none is added. Over
 * https an {@code SslHandler} from {@code SslContextBuilder} with the JDK provider ({@link SslProvider#JDK}, not
 * OpenSSL) and the lab's key store goes in front of the HTTP/1.1 codec; no ALPN is configured.
 */
final class NettyTarget implements ServerTarget {
    @Override
    public void checkSupported(Protocol protocol) {
        ServerTarget.checkSupportedWithHttps(protocol);
    }

    @Override
    public RunningServer start(Protocol protocol, ServerSettings settings) throws Exception {
        checkSupported(protocol);
        SslContext tls = protocol == Protocol.HTTPS
                ? SslContextBuilder.forServer(LabTls.keyManagers(settings.requireKeyStore()))
                        .sslProvider(SslProvider.JDK)
                        .build()
                : null;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Http2Settings http2Settings = Http2Settings.defaultSettings()
                .maxConcurrentStreams(settings.maxConcurrentStreams())
                .initialWindowSize(settings.initialWindowSize());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (protocol == Protocol.H2C) {
                            channel.pipeline().addLast(
                                    Http2FrameCodecBuilder.forServer().initialSettings(http2Settings).build(),
                                    Http2Hello.INSTANCE);
                        } else {
                            if (tls != null) {
                                channel.pipeline().addLast(tls.newHandler(channel.alloc()));
                            }
                            channel.pipeline().addLast(new HttpServerCodec(), Http1Hello.INSTANCE);
                        }
                    }
                });
        Channel channel = bootstrap.bind("127.0.0.1", 0).sync().channel();
        int port = ((InetSocketAddress) channel.localAddress()).getPort();
        return new RunningServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() throws Exception {
                channel.close().sync();
                group.shutdownGracefully().sync();
            }
        };
    }

    /** Answers each HTTP/2 request when its last frame arrives; flushes once per read batch. */
    @ChannelHandler.Sharable
    static final class Http2Hello extends ChannelInboundHandlerAdapter {
        static final Http2Hello INSTANCE = new Http2Hello();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame headers && headers.isEndStream()) {
                    respond(ctx, headers.stream());
                } else if (msg instanceof Http2DataFrame data && data.isEndStream()) {
                    respond(ctx, data.stream());
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private static void respond(ChannelHandlerContext ctx, Http2FrameStream stream) {
            Http2Headers headers = new DefaultHttp2Headers().status("200")
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, ServerSettings.BODY.length);
            ctx.write(new DefaultHttp2HeadersFrame(headers).stream(stream));
            ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(ServerSettings.BODY), true).stream(stream));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Answers each HTTP/1.1 request head; body parts are released unread. */
    @ChannelHandler.Sharable
    static final class Http1Hello extends ChannelInboundHandlerAdapter {
        static final Http1Hello INSTANCE = new Http1Hello();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                            HttpResponseStatus.OK, Unpooled.wrappedBuffer(ServerSettings.BODY));
                    response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                            .setInt(HttpHeaderNames.CONTENT_LENGTH, ServerSettings.BODY.length);
                    boolean keepAlive = HttpUtil.isKeepAlive(request);
                    HttpUtil.setKeepAlive(response, keepAlive);
                    ctx.write(response);
                    if (!keepAlive) {
                        ctx.flush();
                        ctx.close();
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
