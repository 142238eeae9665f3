"""Raw HTTP/2 frames for the soak's attack clients: written by hand (an attacker does not ask a state machine for
permission), read back with a small frame reader; response field blocks are decoded with python3-hpack to get :status."""
import socket
import struct
import time

import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
ERRORS = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR", 4: "SETTINGS_TIMEOUT",
          5: "STREAM_CLOSED", 6: "FRAME_SIZE_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 9: "COMPRESSION_ERROR",
          10: "CONNECT_ERROR", 11: "ENHANCE_YOUR_CALM", 12: "INADEQUATE_SECURITY", 13: "HTTP_1_1_REQUIRED"}


def frame(ftype, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def settings(**values):
    ids = {"header_table_size": 1, "enable_push": 2, "max_concurrent_streams": 3, "initial_window_size": 4,
           "max_frame_size": 5, "max_header_list_size": 6}
    return frame(SETTINGS, 0, 0, b"".join(struct.pack(">HI", ids[k], v) for k, v in values.items()))


def literal(value):
    """An HPACK string literal, not Huffman-coded, with a short (< 127) length."""
    value = value.encode() if isinstance(value, str) else value
    assert len(value) < 127
    return bytes([len(value)]) + value


def request_block(path="/", authority="127.0.0.1"):
    """GET http://authority/path as a field block that leaves the dynamic table alone."""
    block = b"\x82\x86"  # :method GET, :scheme http
    block += b"\x84" if path == "/" else b"\x04" + literal(path)  # :path (literal without indexing, name 4)
    return block + b"\x01" + literal(authority)  # :authority, literal without indexing, name 1


class Conn:
    """One h2c connection with prior knowledge: preface + SETTINGS sent on open; frames read on demand."""

    def __init__(self, port, timeout=10.0, **client_settings):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.decoder = hpack.Decoder()
        self.decoder.max_allowed_table_size = 65536
        self.decoder.max_header_list_size = 1 << 20
        self.closed = False
        self.send(PREFACE + settings(**client_settings))

    def send(self, data):
        self.sock.sendall(data)

    def frame(self, deadline):
        """The next frame as (type, flags, stream, payload), or None when the peer closed; raises socket.timeout."""
        while True:
            if len(self.buf) >= 9:
                length = int.from_bytes(self.buf[:3], "big")
                if len(self.buf) >= 9 + length:
                    head, self.buf = self.buf[:9 + length], self.buf[9 + length:]
                    ftype, flags = head[3], head[4]
                    stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                    payload = head[9:]
                    if ftype == SETTINGS and not flags & ACK:
                        self.send(frame(SETTINGS, ACK, 0))
                    return ftype, flags, stream, payload
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("deadline")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                self.closed = True
                return None
            self.buf += chunk

    def status(self, payload, flags):
        """:status of a response HEADERS frame (padding and priority stripped)."""
        if flags & 0x8:
            payload = payload[1:len(payload) - payload[0]]
        if flags & 0x20:
            payload = payload[5:]
        for name, value in self.decoder.decode(payload):
            if name == ":status":
                return value
        return "?"

    def until(self, seconds, want):
        """Reads frames for up to `seconds` until want(ftype, flags, stream, payload) returns an outcome string;
        GOAWAY, close, reset and silence end it too. Returns the outcome."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                f = self.frame(deadline)
                if f is None:
                    return "closed"
                outcome = want(*f)
                if outcome:
                    return outcome
                if f[0] == GOAWAY:
                    return "GOAWAY " + ERRORS.get(int.from_bytes(f[3][4:8], "big"), "?")
        except socket.timeout:
            return "no answer in %ds" % seconds
        except ConnectionResetError:
            return "reset"
        except OSError as e:
            return "error " + type(e).__name__

    def close(self, rst=False):
        try:
            if rst:
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.sock.close()
        except OSError:
            pass
