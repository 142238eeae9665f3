package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Writes through the socket: the view of an array written before is set to each new slice, whatever came between. */
class PlainTransportTest {
    @Test
    void writesEachSliceExactlyWhenArraysAreWrittenAgain() throws Exception {
        byte[] head = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] other = "0123456789".getBytes(StandardCharsets.US_ASCII);
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept()) {
            PlainTransport transport = new PlainTransport(client, null, System::nanoTime);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();

            write(transport, expected, head, 0, head.length);
            write(transport, expected, head, 4, 1); // a narrower slice of the same array
            write(transport, expected, other, 3, 5);
            write(transport, expected, head, 0, head.length); // back to the first array
            transport.releaseBuffers();
            write(transport, expected, head, 6, 12);
            write(transport, expected, other, 9, 1);
            write(transport, expected, other, 0, 0);

            assertThat(transport.bytesSent()).isEqualTo(expected.size());
            assertThat(readExactly(accepted, expected.size())).isEqualTo(expected.toByteArray());
        }
    }

    private static void write(Transport transport, ByteArrayOutputStream expected, byte[] bytes, int offset,
                              int length) throws Exception {
        transport.write(bytes, offset, length);
        expected.write(bytes, offset, length);
    }

    private static byte[] readExactly(SocketChannel channel, int size) throws Exception {
        ByteBuffer in = ByteBuffer.allocate(size);
        while (in.hasRemaining()) {
            if (channel.read(in) < 0) {
                break;
            }
        }
        return in.array();
    }
}
