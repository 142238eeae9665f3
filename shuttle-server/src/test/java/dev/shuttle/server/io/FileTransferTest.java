package dev.shuttle.server.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConnectionOutput#transferFrom}: bytes go from the file to the socket by {@code transferTo} (counted apart by
 * the transport), and when the peer stops reading the transfer waits in an ordinary blocking write instead of
 * spinning, then goes on with {@code transferTo}; the peer gets every byte in order either way.
 */
class FileTransferTest {
    @TempDir
    Path dir;

    @Test
    void aSlowReaderMakesTheTransferWaitInABlockingWriteAndNoByteIsLost() throws Exception {
        int size = 16 * 1024 * 1024; // more than both socket buffers hold
        byte[] content = new byte[size];
        new Random(7).nextBytes(content);
        Path file = Files.write(dir.resolve("big.bin"), content);
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel peer = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            PlainTransport transport = new PlainTransport(accepted, null, System::nanoTime);
            long[] counted = new long[1];
            ConnectionOutput output = new ConnectionOutput(transport, new ByteCounts() {
                @Override
                public void countRead(int n) {
                }

                @Override
                public void countWritten(int n) {
                    counted[0] += n;
                }
            }, new BufferPool(4));
            output.write("head\n".getBytes());
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    output.transferFrom(channel, 0, size);
                    done.complete(null);
                } catch (IOException e) {
                    done.completeExceptionally(e);
                }
            });
            // The peer reads nothing until the sender parks: transferTo never parks (it returns 0 on a full
            // socket), so a parked sender is inside the blocking write that waits for room.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sender.getState() != Thread.State.WAITING && sender.getState() != Thread.State.TIMED_WAITING) {
                assertThat(System.nanoTime()).as("the sender never waited for room").isLessThan(deadline);
                assertThat(done).isNotDone();
                Thread.yield();
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream(size + 5);
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (received.size() < size + 5) {
                buffer.clear();
                int n = peer.read(buffer);
                assertThat(n).isPositive();
                received.write(buffer.array(), 0, n);
            }
            done.get(30, TimeUnit.SECONDS);
            byte[] all = received.toByteArray();
            assertThat(new String(all, 0, 5)).isEqualTo("head\n");
            assertThat(java.util.Arrays.equals(all, 5, all.length, content, 0, size)).isTrue();
            assertThat(transport.bytesSentFromFiles()).isPositive().isLessThan(size);
            assertThat(counted[0]).isEqualTo(size + 5);
        }
    }

    @Test
    void aFileShorterThanPromisedIsAnErrorNotAHang() throws Exception {
        Path file = Files.write(dir.resolve("short.bin"), new byte[100]);
        try (ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel peer = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ConnectionOutput output = new ConnectionOutput(new PlainTransport(accepted, null, System::nanoTime),
                    new ByteCounts() {
                        @Override
                        public void countRead(int n) {
                        }

                        @Override
                        public void countWritten(int n) {
                        }
                    }, new BufferPool(4));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> output.transferFrom(channel, 0, 200))
                    .isInstanceOf(IOException.class).hasMessageContaining("file ended 100 bytes before");
        }
    }
}
