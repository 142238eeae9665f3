"""A scripted HTTP/2 client on Python's h2 (Debian python3-h2), for protocol cases a well-behaved client library
would never produce. Usage: h2_peer.py SCENARIO PORT. Prints one line per observation; the Java test reads them."""
import socket
import sys

import h2.config
import h2.connection
import h2.events
import h2.settings


def out(*words):
    print(*words, flush=True)


class Peer:
    def __init__(self, port, settings=None):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.settimeout(15)
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
        self.conn = h2.connection.H2Connection(config=config)
        self.conn.initiate_connection()
        if settings:
            self.conn.update_settings(settings)
        self.flush()
        self.bodies = {}
        self.status = {}
        self.ended = set()
        self.resets = {}
        self.goaway = None
        self.closed = False

    def flush(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def request(self, path, end_stream=True, method="GET"):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", method), (":scheme", "http"), (":authority", "localhost"),
                                        (":path", path)], end_stream=end_stream)
        self.flush()
        return stream

    def read_events(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            out("timeout")
            sys.exit(3)
        if not data:
            self.closed = True
            return []
        events = self.conn.receive_data(data)
        for event in events:
            if isinstance(event, h2.events.ResponseReceived):
                self.status[event.stream_id] = dict(event.headers)[":status"]
            elif isinstance(event, h2.events.DataReceived):
                self.bodies[event.stream_id] = self.bodies.get(event.stream_id, b"") + event.data
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                self.ended.add(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                self.resets[event.stream_id] = event.error_code
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.goaway = (event.last_stream_id, event.error_code)
        self.flush()
        return events

    def until(self, predicate):
        while not predicate():
            if self.closed:
                out("closed-early")
                sys.exit(4)
            self.read_events()


def refused(port):
    peer = Peer(port)
    a = peer.request("/block")
    b = peer.request("/block")
    c = peer.request("/block")
    peer.until(lambda: c in peer.resets)
    out("refused", c, int(peer.resets[c]))
    peer.until(lambda: a in peer.ended and b in peer.ended)
    out("done", a, peer.status[a], "done", b, peer.status[b])


def reset(port):
    peer = Peer(port)
    slow = peer.request("/slow")
    peer.until(lambda: slow in peer.bodies)
    peer.conn.reset_stream(slow, error_code=8)  # CANCEL
    peer.flush()
    out("cancelled", slow)
    fast = peer.request("/fast")
    peer.until(lambda: fast in peer.ended)
    out("done", fast, peer.status[fast], len(peer.bodies[fast]))


def upload(port):
    peer = Peer(port)
    size = 3 * 1024 * 1024
    body = bytes(i % 251 for i in range(size))
    stream = peer.request("/echo", end_stream=False, method="POST")
    sent = 0
    while sent < size:
        window = min(peer.conn.local_flow_control_window(stream), peer.conn.max_outbound_frame_size)
        if window <= 0:
            peer.read_events()
            continue
        chunk = body[sent:sent + window]
        peer.conn.send_data(stream, chunk, end_stream=sent + len(chunk) == size)
        peer.flush()
        sent += len(chunk)
    peer.until(lambda: stream in peer.ended)
    out("echo", len(peer.bodies[stream]), peer.bodies[stream] == body)


def zero_window(port):
    peer = Peer(port, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    stalled = peer.request("/big")
    peer.until(lambda: stalled in peer.resets)
    out("reset", stalled, int(peer.resets[stalled]))
    nobody = peer.request("/nobody")
    peer.until(lambda: nobody in peer.ended)
    out("done", nobody, peer.status[nobody])


def ping(port):
    peer = Peer(port)
    peer.conn.ping(b"shuttle!")
    peer.flush()
    while True:
        for event in peer.read_events():
            if isinstance(event, h2.events.PingAckReceived):
                out("pong", event.ping_data == b"shuttle!")
                return


def goaway(port):
    # h2's state machine closes at GOAWAY and refuses the frames that still come for streams in flight, which a
    # graceful GOAWAY is about: after the request goes out, frames are read raw.
    peer = Peer(port)
    stream = peer.request("/block")
    out("started", stream)
    buffer = b""
    seen = set()
    while True:
        try:
            data = peer.sock.recv(65536)
        except socket.timeout:
            out("timeout")
            sys.exit(3)
        if not data:
            out("closed")
            return
        buffer += data
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[0:3], "big")
            if len(buffer) < 9 + length:
                break
            kind, flags = buffer[3], buffer[4]
            stream_id = int.from_bytes(buffer[5:9], "big") & 0x7fffffff
            payload = buffer[9:9 + length]
            buffer = buffer[9 + length:]
            if kind == 7:
                out("goaway", int.from_bytes(payload[0:4], "big") & 0x7fffffff, int.from_bytes(payload[4:8], "big"))
            elif kind == 6 and not flags & 1:
                peer.sock.sendall(bytes([0, 0, 8, 6, 1, 0, 0, 0, 0]) + payload)  # PING ACK, as any client does
            elif kind == 0 and stream_id == stream and flags & 1:
                out("done", stream, 200 if "headers" in seen else "no-headers")
            elif kind == 1 and stream_id == stream:
                seen.add("headers")


if __name__ == "__main__":
    {"refused": refused, "reset": reset, "upload": upload, "zero-window": zero_window, "ping": ping,
     "goaway": goaway}[sys.argv[1]](int(sys.argv[2]))
