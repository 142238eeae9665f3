package dev.shuttle.lab.reuse.peers;

import dev.shuttle.transport.tls.SelfSignedCertificate;
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
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Netty 4.2 serving HTTP/2 only, as an application would write it: {@code Http2FrameCodec} with its default
 * settings and flow control, one handler answering each request when its head arrives; over TLS an
 * {@code SslHandler} on the JDK provider offering h2 alone in ALPN.
 */
public final class NettyPeer implements PeerServer {
    private final Channel channel;
    private final EventLoopGroup group;

    private NettyPeer(Channel channel, EventLoopGroup group) {
        this.channel = channel;
        this.group = group;
    }

    public static NettyPeer start(SelfSignedCertificate certificate) throws IOException {
        SslContext tls = certificate == null ? null : SslContextBuilder
                .forServer(certificate.privateKey(), certificate.certificate(), certificate.authority())
                .sslProvider(SslProvider.JDK)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))
                .build();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (tls != null) {
                            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
                        }
                        channel.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), Answer.INSTANCE);
                    }
                });
        try {
            return new NettyPeer(bootstrap.bind("127.0.0.1", 0).sync().channel(), group);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            group.shutdownGracefully();
            throw new IOException("interrupted while Netty was binding", e);
        }
    }

    @Override
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully().syncUninterruptibly();
    }

    /** Answers each request once its head arrived (GETs have no body); flushes once per read batch. */
    @ChannelHandler.Sharable
    static final class Answer extends ChannelInboundHandlerAdapter {
        static final Answer INSTANCE = new Answer();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame request && request.isEndStream()) {
                    String target = String.valueOf(request.headers().path());
                    int q = target.indexOf('?');
                    PeerBodies.Body body = PeerBodies.forRequest(q < 0 ? target : target.substring(0, q),
                            q < 0 ? null : target.substring(q + 1));
                    if (body == null) {
                        ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("404"), true)
                                .stream(request.stream()));
                        return;
                    }
                    Http2Headers headers = new DefaultHttp2Headers().status("200")
                            .set(HttpHeaderNames.CONTENT_TYPE, body.contentType());
                    if (body.declaresLength()) {
                        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length());
                    }
                    ctx.write(new DefaultHttp2HeadersFrame(headers).stream(request.stream()));
                    ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body.bytes()), true)
                            .stream(request.stream()));
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
