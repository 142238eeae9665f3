package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartFormData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** multipart/form-data as Jetty's parser reads it, and byte for byte as Shuttle's server receives it. */
class MultipartTest {
    @TempDir
    Path dir;

    @Test
    void jettyParsesFieldsAndStreamedFiles() throws Exception {
        Path photo = dir.resolve("beach \"sunny\".jpg");
        byte[] pixels = new byte[200_000];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (byte) (i * 31);
        }
        Files.write(photo, pixels);
        Path notes = dir.resolve("notes.txt");
        Files.writeString(notes, "température\n");
        List<String> parts = new ArrayList<>();
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        jetty.addConnector(connector);
        jetty.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                  Callback callback) throws Exception {
                String type = request.getHeaders().get("Content-Type");
                String boundary = type.substring(type.indexOf("boundary=") + 9);
                MultiPartFormData.Parser parser = new MultiPartFormData.Parser(boundary);
                parser.setMaxMemoryFileSize(1 << 20); // parts stay in memory: no files directory needed
                MultiPartFormData.Parts received = parser.parse(request).get(10, TimeUnit.SECONDS);
                for (MultiPart.Part part : received) {
                    String content = part.getFileName() != null && part.getFileName().endsWith(".jpg")
                            ? part.getLength() + " bytes, intact " + java.util.Arrays.equals(
                                    org.eclipse.jetty.io.Content.Source.asByteBuffer(part.getContentSource()).array(),
                                    pixels)
                            : part.getContentAsString(StandardCharsets.UTF_8);
                    parts.add(part.getName() + "|" + part.getFileName() + "|"
                            + part.getHeaders().get("Content-Type") + "|" + content);
                }
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        jetty.start();
        try (HttpClient client = HttpClient.create()) {
            MultipartBody form = MultipartBody.builder()
                    .field("title", "Été")
                    .file("photo", photo, "image/jpeg")
                    .file("notes", notes)
                    .build();
            assertThat(form.contentLength()).isPositive();
            Request upload = Request.newBuilder(URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/u"))
                    .POST(form).build();
            assertThat(client.send(upload, BodyHandler.discarding()).status()).isEqualTo(200);
        } finally {
            jetty.stop();
        }
        assertThat(parts).containsExactly(
                "title|null|null|Été",
                "photo|beach %22sunny%22.jpg|image/jpeg|200000 bytes, intact true",
                "notes|notes.txt|text/plain|température\n");
    }

    @Test
    void theWireFormatIsExactAndTheLengthDeclared() throws Exception {
        List<String> received = new ArrayList<>();
        try (HttpServer server = HttpServer.builder().port(0).handler((request, response) -> {
            received.add(request.header("Content-Type") + "\n" + request.header("Content-Length") + "\n"
                    + new String(request.bodyBytes(), StandardCharsets.UTF_8));
            response.send("ok");
        }).start(); HttpClient client = HttpClient.create()) {
            MultipartBody form = MultipartBody.builder().boundary("b0undary").field("a", "1")
                    .part("data", "d.bin", "application/octet-stream", BodyPublisher.ofString("xyz")).build();
            client.send(Request.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                    .PUT(form).build(), BodyHandler.discarding());
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            form.writeTo(written);
            assertThat(written.size()).isEqualTo(form.contentLength());
        }
        String body = "--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
                + "--b0undary\r\nContent-Disposition: form-data; name=\"data\"; filename=\"d.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\nxyz\r\n--b0undary--\r\n";
        assertThat(received).containsExactly("multipart/form-data; boundary=b0undary\n" + body.length() + "\n"
                + body);
    }
}
