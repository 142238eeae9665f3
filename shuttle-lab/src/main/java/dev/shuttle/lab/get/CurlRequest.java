package dev.shuttle.lab.get;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.MultipartBody;
import dev.shuttle.client.Request;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * The request {@code shuttle get} sends, from curl's flags and by curl's rules: {@code -d} (joined with {@code &},
 * {@code @file} read with its line breaks removed, as curl does) and {@code --data-binary} (the file as it is) make a
 * POST of {@code application/x-www-form-urlencoded} unless {@code -H} names another type; {@code -F name=value} and
 * {@code -F name=@file[;type=T]} a multipart POST, each file streamed; {@code -X} overrides the method; {@code -u}
 * sends Basic credentials up front, to the URL's origin only (a redirect elsewhere drops them, as curl does without
 * {@code --location-trusted}); {@code -H "Name: value"} adds a field.
 */
public final class CurlRequest {
    private CurlRequest() {
    }

    /**
     * @throws IllegalArgumentException for a malformed flag (the message says which), or a file that cannot be read
     */
    public static Request build(URI uri, String method, List<String> headers, List<String> data,
                                List<String> dataBinary, List<String> form, String user) {
        Request.Builder request = Request.newBuilder(uri);
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("-H wants \"Name: value\", got \"" + header + "\"");
            }
            request.addHeader(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
        }
        if (user != null) {
            int colon = user.indexOf(':');
            String name = colon < 0 ? user : user.substring(0, colon);
            String password = colon < 0 ? "" : user.substring(colon + 1);
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (name + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        String defaultMethod = "GET";
        if (!form.isEmpty()) {
            if (!data.isEmpty() || !dataBinary.isEmpty()) {
                throw new IllegalArgumentException("-F cannot be combined with -d or --data-binary (as in curl)");
            }
            request.method("POST", multipart(form));
            defaultMethod = "POST";
        } else if (!data.isEmpty() || !dataBinary.isEmpty()) {
            byte[] body = data(data, dataBinary);
            BodyPublisher publisher = BodyPublisher.ofBytes(body);
            request.method("POST", publisher);
            if (headers.stream().noneMatch(h -> h.regionMatches(true, 0, "Content-Type:", 0, 13))) {
                request.header("Content-Type", "application/x-www-form-urlencoded");
            }
            defaultMethod = "POST";
        }
        Request built = request.build();
        if (method != null && !method.equals(defaultMethod)) {
            return built.toBuilder().method(method, built.body()).build();
        }
        return built;
    }

    /** The -d items, then the --data-binary ones, joined with {@code &} (picocli keeps no order between the two). */
    private static byte[] data(List<String> data, List<String> dataBinary) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String item : data) {
            separate(out);
            out.writeBytes((item.startsWith("@") ? read(item.substring(1)).replace("\r", "").replace("\n", "") : item)
                    .getBytes(StandardCharsets.UTF_8));
        }
        for (String item : dataBinary) {
            separate(out);
            out.writeBytes(item.startsWith("@") ? readBytes(item.substring(1)) : item.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static void separate(ByteArrayOutputStream out) {
        if (out.size() > 0) {
            out.write('&');
        }
    }

    private static MultipartBody multipart(List<String> form) {
        MultipartBody.Builder body = MultipartBody.builder();
        for (String field : form) {
            int eq = field.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("-F wants name=value or name=@file, got \"" + field + "\"");
            }
            String name = field.substring(0, eq);
            String value = field.substring(eq + 1);
            if (!value.startsWith("@")) {
                body.field(name, value);
                continue;
            }
            String file = value.substring(1);
            String type = null;
            int semicolon = file.indexOf(";type=");
            if (semicolon >= 0) {
                type = file.substring(semicolon + 6);
                file = file.substring(0, semicolon);
            }
            Path path = Path.of(file);
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException("-F " + name + ": cannot read " + file);
            }
            if (type == null) {
                body.file(name, path);
            } else {
                body.file(name, path, type);
            }
        }
        return body.build();
    }

    private static String read(String file) {
        return new String(readBytes(file), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(String file) {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getCause().getMessage(), e);
        }
    }
}
