#!/usr/bin/python3
"""An HTTP/2 client on the Python h2 package that closes response bodies early, for Shuttle's interop tests.

It makes its GETs on one connection, one at a time or several at once, and alternates between the two ways a
client leaves a body unread: even requests reset the stream (RST_STREAM CANCEL) as soon as the response head
arrives; odd ones ignore the body, handing its flow-control credit back as each DATA frame arrives, until the
stream ends. A concurrent run makes one request alone first, so the connection exists before the rest start.

It prints one JSON line: requests made, failures (not a 200, a stream the server reset, the connection ended or
timed out), the first failure, and the GOAWAY frames the server sent.
"""
import argparse
import json
import socket
import ssl
import sys

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls", action="store_true", help="TLS with ALPN h2 (certificate not verified)")
    parser.add_argument("--path", required=True)
    parser.add_argument("--workers", type=int, default=1, help="streams in flight at once")
    parser.add_argument("--per-worker", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds without a byte from the server")
    return parser.parse_args()


def connect(args):
    sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if not args.tls:
        return sock
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    tls = context.wrap_socket(sock, server_hostname=args.host)
    if tls.selected_alpn_protocol() != "h2":
        raise SystemExit("the server did not choose h2 in ALPN: %r" % tls.selected_alpn_protocol())
    return tls


class Run:
    def __init__(self, args, sock):
        self.args = args
        self.sock = sock
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.total = args.workers * args.per_worker + (1 if args.workers > 1 else 0)
        self.started = 0
        self.in_flight = {}  # stream id -> "reset" or "ignore"
        self.failures = 0
        self.first_failure = None
        self.go_aways = []

    def fail(self, why):
        self.failures += 1
        if self.first_failure is None:
            self.first_failure = why

    def start_stream(self):
        stream_id = self.conn.get_next_available_stream_id()
        authority = "%s:%d" % (self.args.host, self.args.port)
        self.conn.send_headers(stream_id, [
            (":method", "GET"), (":scheme", "https" if self.args.tls else "http"),
            (":authority", authority), (":path", self.args.path)], end_stream=True)
        self.in_flight[stream_id] = "reset" if self.started % 2 == 0 else "ignore"
        self.started += 1

    def flush(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def handle(self, event):
        if isinstance(event, h2.events.ResponseReceived):
            status = dict(event.headers).get(b":status")
            if status != b"200":
                self.fail("status %r on stream %d" % (status, event.stream_id))
            if self.in_flight.get(event.stream_id) == "reset":
                del self.in_flight[event.stream_id]
                try:
                    self.conn.reset_stream(event.stream_id, h2.errors.ErrorCodes.CANCEL)
                except h2.exceptions.StreamClosedError:
                    pass  # the whole body came with the head, in the same read: nothing left to refuse
            elif event.stream_ended:
                self.in_flight.pop(event.stream_id, None)
        elif isinstance(event, h2.events.DataReceived):
            # unread, but its credit goes back: the connection window must not run dry
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_ended:
                self.in_flight.pop(event.stream_id, None)
        elif isinstance(event, h2.events.StreamEnded):
            self.in_flight.pop(event.stream_id, None)
        elif isinstance(event, h2.events.StreamReset):
            if self.in_flight.pop(event.stream_id, None) is not None:
                self.fail("the server reset stream %d: %r" % (event.stream_id, event.error_code))
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.go_aways.append("%r last-stream %d %r" % (event.error_code, event.last_stream_id,
                                                           event.additional_data))

    def run(self):
        self.conn.initiate_connection()
        self.flush()
        limit = 1
        while (self.started < self.total or self.in_flight) and not self.go_aways:
            while self.started < self.total and len(self.in_flight) < limit:
                self.start_stream()
            self.flush()
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                self.fail("no byte from the server for %.0f s" % self.args.timeout)
                break
            if not data:
                self.fail("the server closed the connection")
                break
            for event in self.conn.receive_data(data):
                self.handle(event)
            self.flush()
            if self.started >= 1 and not self.in_flight:
                limit = self.args.workers
        for _ in self.in_flight:
            self.fail("unanswered when the connection ended: %s" % (self.go_aways or "no GOAWAY"))
        if self.go_aways:
            self.fail("the server sent GOAWAY: %s" % self.go_aways[0])
        self.failures += self.total - self.started  # never started
        self.conn.close_connection()
        try:
            self.flush()
        except OSError:
            pass
        self.sock.close()
        return {"requests": self.total, "failures": self.failures, "firstFailure": self.first_failure,
                "goAways": len(self.go_aways)}


def main():
    args = parse_args()
    result = Run(args, connect(args)).run()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
