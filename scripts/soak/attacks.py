#!/usr/bin/python3
"""The soak's attackers (scripts/soak.sh): each attack runs in its own thread, in rounds, until the duration is over,
against one Shuttle server on 127.0.0.1; every round counts how the attack ended (status, GOAWAY code, RST_STREAM
code, close, reset, silence). docs/SECURITY.md says what the server should answer; the expected answer of each attack
is in EXPECTED, and the summary marks outcomes that are not among them.

Usage: attacks.py PORT SECONDS OUT_JSON   (OUT_JSON is rewritten every 10 s and at the end)
"""
import json
import os
import socket
import struct
import sys
import threading
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h2frames as h2  # noqa: E402

PORT, SECONDS, OUT = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
END = time.monotonic() + SECONDS
COUNTS = Counter()
LOCK = threading.Lock()

# What docs/SECURITY.md says each attack ends in; anything else is reported as unexpected.
EXPECTED = {
    "h1 slowloris (200 conns trickling a head)": {"408 and close"},
    "h1 silent connection": {"closed without a response"},
    "h1 CL.TE": {"400 and close"},
    "h1 TE.CL": {"400 and close"},
    "h1 duplicate Content-Length": {"400 and close"},
    "h1 oversized request line (10 KiB)": {"414 and close"},
    "h1 oversized head (20 KiB field)": {"431 and close"},
    "h1 too many fields (150)": {"431 and close"},
    "h1 reset mid-response (50 pipelined, RST)": {"client reset"},
    "h2 rapid reset": {"GOAWAY ENHANCE_YOUR_CALM"},
    "h2 CONTINUATION flood": {"GOAWAY ENHANCE_YOUR_CALM"},
    "h2 PING flood": {"GOAWAY ENHANCE_YOUR_CALM"},
    "h2 SETTINGS flood": {"GOAWAY ENHANCE_YOUR_CALM"},
    "h2 HPACK bomb": {"431, connection lives"},
    "h2 zero-window stall (5 streams)": {"streams reset at the write timeout, connection lives"},
    "h2 reset mid-response (20 streams, RST)": {"client reset"},
}


def count(attack, outcome, n=1):
    with LOCK:
        COUNTS[(attack, outcome)] += n


def running():
    return time.monotonic() < END


def loop(attack, fn, pause):
    """Runs fn() in rounds until the end; fn returns an outcome string (or a list of them)."""
    while running():
        try:
            outcome = fn()
        except ConnectionRefusedError:
            outcome = "connection refused"
        except ConnectionResetError:
            outcome = "reset"
        except socket.timeout:
            outcome = "timeout"
        except OSError as e:
            outcome = "error " + type(e).__name__
        for o in outcome if isinstance(outcome, list) else [outcome]:
            count(attack, o)
        time.sleep(pause)


# ---------------------------------------------------------------- HTTP/1.1

def h1_connect(timeout=10.0):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def h1_answer(s, seconds):
    """How the server answered: '<status> and close', '<status>, kept open', 'closed without a response', ..."""
    s.settimeout(seconds)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        if not data:
            return "no answer in %ds" % seconds
        status = data.split(b" ", 2)[1].decode(errors="replace") if data.startswith(b"HTTP/1.1 ") else "garbage"
        return status + ", kept open"
    except ConnectionResetError:
        if not data:
            return "reset without a response"
    finally:
        s.close()
    if not data:
        return "closed without a response"
    status = data.split(b" ", 2)[1].decode(errors="replace") if data.startswith(b"HTTP/1.1 ") else "garbage"
    return status + " and close"


def h1_one(request, seconds=5):
    s = h1_connect()
    try:
        s.sendall(request)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may answer and close before the whole request is in
    return h1_answer(s, seconds)


CL_TE = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
TE_CL = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"
         b"5c\r\nGPOST / HTTP/1.1\r\nContent-Length: 15\r\n\r\nx=1\r\n0\r\n\r\n")
DUP_CL = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 44\r\n\r\nhello"
LONG_LINE = b"GET /" + b"a" * 10240 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
BIG_HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"b" * 20480 + b"\r\n\r\n"
MANY_FIELDS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-F%d: v\r\n" % i for i in range(150)) + b"\r\n"


def smuggling_round():
    for name, req in (("h1 CL.TE", CL_TE), ("h1 TE.CL", TE_CL), ("h1 duplicate Content-Length", DUP_CL),
                      ("h1 oversized request line (10 KiB)", LONG_LINE), ("h1 oversized head (20 KiB field)", BIG_HEAD),
                      ("h1 too many fields (150)", MANY_FIELDS)):
        try:
            count(name, h1_one(req))
        except OSError as e:
            count(name, "error " + type(e).__name__)
        time.sleep(0.05)
    return []


def slowloris_round(n=200, trickle=1.0, limit=20):
    """n connections each send a request line, then one byte of a never-ending field every `trickle` s; the header
    deadline (10 s from accept) should answer 408 and close each."""
    socks = []
    for _ in range(n):
        try:
            s = h1_connect()
            s.sendall(b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        except OSError as e:
            count("h1 slowloris (200 conns trickling a head)", "connect/send " + type(e).__name__)
    live, answered = list(socks), []
    start = time.monotonic()
    while live and time.monotonic() - start < limit:
        time.sleep(trickle)
        for s in list(live):
            try:
                s.send(b"a")
            except OSError:
                live.remove(s)
                answered.append(s)
    outcomes = [h1_answer(s, 3) for s in answered]
    for s in live:  # still open past the limit: the deadline did not fire
        s.close()
        outcomes.append("still open after %ds" % limit)
    return outcomes


def silent_round():
    """A connection that sends nothing: closed at the header deadline, without a response."""
    s = h1_connect()
    return h1_answer(s, 15)


def h1_reset_round():
    """50 pipelined keep-alive requests, read a little, then an abortive close (RST) mid-responses."""
    s = h1_connect()
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 50)
    s.recv(100)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    return "client reset"


# ---------------------------------------------------------------- HTTP/2

def h2_ready(c):
    """Waits for the server's SETTINGS (acknowledged by the reader)."""
    return c.until(5, lambda t, f, s, p: "ready" if t == h2.SETTINGS and not f & h2.ACK else None)


def rapid_reset_round():
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        block = h2.request_block()
        sid = 1
        burst = []
        for _ in range(1000):  # HEADERS + RST_STREAM(CANCEL), in batches of 50 pairs
            burst.append(h2.frame(h2.HEADERS, h2.END_STREAM | h2.END_HEADERS, sid, block))
            burst.append(h2.frame(h2.RST_STREAM, 0, sid, struct.pack(">I", 8)))
            sid += 2
            if len(burst) == 100:
                try:
                    c.send(b"".join(burst))
                except OSError:
                    break
                burst = []
        return c.until(10, lambda *f: None)
    finally:
        c.close()


def continuation_flood_round():
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        frames = [h2.frame(h2.HEADERS, h2.END_STREAM, 1, h2.request_block())]
        frames += [h2.frame(h2.CONTINUATION, 0, 1)] * 2000  # empty, never END_HEADERS
        try:
            c.send(b"".join(frames))
        except OSError:
            pass
        return c.until(10, lambda *f: None)
    finally:
        c.close()


def ping_flood_round():
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        try:
            c.send(b"".join(h2.frame(h2.PING, 0, 0, struct.pack(">Q", i)) for i in range(1000)))
        except OSError:
            pass
        return c.until(10, lambda *f: None)
    finally:
        c.close()


def settings_flood_round():
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        try:
            c.send(b"".join(h2.settings(header_table_size=4096 + i % 2) for i in range(1000)))
        except OSError:
            pass
        return c.until(10, lambda *f: None)
    finally:
        c.close()


def hpack_bomb_round():
    """One 4 KiB field into the dynamic table, then a block referencing it 4000 times (16 MB decoded from ~4 KiB);
    expected: 431 on that stream and the connection lives (a second request on it is answered 200)."""
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        value = b"v" * 4000
        big = b"\x40" + h2.literal("x-bomb") + b"\x7f" + bytes(_hpack_int(len(value) - 127)) + value
        block = h2.request_block() + big + b"\xbe" * 4000  # 0xbe: indexed field 62, the newest table entry
        frames, first = [], True
        while block:  # HEADERS then CONTINUATIONs of at most 16 KiB
            piece, block = block[:16384], block[16384:]
            flags = (h2.END_STREAM if first else 0) | (0 if block else h2.END_HEADERS)
            frames.append(h2.frame(h2.HEADERS if first else h2.CONTINUATION, flags, 1, piece))
            first = False
        c.send(b"".join(frames))
        first_answer = c.until(10, _status_or_reset(c, 1))
        c.send(h2.frame(h2.HEADERS, h2.END_STREAM | h2.END_HEADERS, 3, h2.request_block()))
        second = c.until(10, _status_or_reset(c, 3))
        if first_answer == "status 431" and second == "status 200":
            return "431, connection lives"
        return "%s, then %s" % (first_answer, second)
    finally:
        c.close()


def _hpack_int(n):
    out = []
    while n >= 128:
        out.append(n % 128 + 128)
        n //= 128
    out.append(n)
    return out


def _status_or_reset(c, stream):
    def want(t, f, s, p):
        if s == stream and t == h2.HEADERS:
            return "status " + c.status(p, f)
        if s == stream and t == h2.RST_STREAM:
            return "RST_STREAM " + h2.ERRORS.get(int.from_bytes(p[:4], "big"), "?")
        return None
    return want


def zero_window_round():
    """SETTINGS_INITIAL_WINDOW_SIZE 0 and never a WINDOW_UPDATE: the responses' DATA can never be sent. Expected:
    each stream reset at the write timeout (30 s), the connection lives (a PING is answered)."""
    c = h2.Conn(PORT, timeout=60, initial_window_size=0)
    try:
        h2_ready(c)
        streams = [1, 3, 5, 7, 9]
        c.send(b"".join(h2.frame(h2.HEADERS, h2.END_STREAM | h2.END_HEADERS, s, h2.request_block()) for s in streams))
        reset = {}

        def want(t, f, s, p):
            if t == h2.RST_STREAM:
                reset[s] = h2.ERRORS.get(int.from_bytes(p[:4], "big"), "?")
                if len(reset) == len(streams):
                    return "all reset"
            if t == h2.DATA and p:
                return "DATA beyond the window"
            return None
        outcome = c.until(45, want)
        if outcome != "all reset":
            return "%s after %d resets" % (outcome, len(reset))
        c.send(h2.frame(h2.PING, 0, 0, b"stalled!"))
        pong = c.until(5, lambda t, f, s, p: "pong" if t == h2.PING and f & h2.ACK else None)
        codes = "/".join(sorted(set(reset.values())))
        if pong == "pong":
            return "streams reset at the write timeout, connection lives"
        return "streams reset (%s), then %s" % (codes, pong)
    finally:
        c.close()


def h2_reset_round():
    """20 requests, the first response bytes read, then an abortive close (RST) of the connection."""
    c = h2.Conn(PORT)
    try:
        h2_ready(c)
        c.send(b"".join(h2.frame(h2.HEADERS, h2.END_STREAM | h2.END_HEADERS, s, h2.request_block())
                        for s in range(1, 41, 2)))
        c.until(5, lambda t, f, s, p: "first" if t in (h2.HEADERS, h2.DATA) else None)
        return "client reset"
    finally:
        c.close(rst=True)


def reporter():
    while running():
        time.sleep(10)
        write()


def write():
    with LOCK:
        rows = [{"attack": a, "outcome": o, "count": n, "expected": o in EXPECTED.get(a, ())}
                for (a, o), n in sorted(COUNTS.items())]
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        json.dump(rows, f, indent=1)
    os.replace(tmp, OUT)


def main():
    threads = [
        threading.Thread(target=loop, args=("h1 slowloris (200 conns trickling a head)", slowloris_round, 2)),
        threading.Thread(target=loop, args=("h1 silent connection", silent_round, 1)),
        threading.Thread(target=loop, args=("h1 smuggling and oversized heads", smuggling_round, 1)),
        threading.Thread(target=loop, args=("h1 reset mid-response (50 pipelined, RST)", h1_reset_round, 0.5)),
        threading.Thread(target=loop, args=("h2 rapid reset", rapid_reset_round, 2)),
        threading.Thread(target=loop, args=("h2 CONTINUATION flood", continuation_flood_round, 2)),
        threading.Thread(target=loop, args=("h2 PING flood", ping_flood_round, 2)),
        threading.Thread(target=loop, args=("h2 SETTINGS flood", settings_flood_round, 2)),
        threading.Thread(target=loop, args=("h2 HPACK bomb", hpack_bomb_round, 1)),
        threading.Thread(target=loop, args=("h2 zero-window stall (5 streams)", zero_window_round, 1)),
        threading.Thread(target=loop, args=("h2 reset mid-response (20 streams, RST)", h2_reset_round, 0.5)),
        threading.Thread(target=reporter),
    ]
    for t in threads:
        t.daemon = True
        t.start()
    for t in threads:
        t.join(max(0.0, END - time.monotonic()) + 60)
    write()


if __name__ == "__main__":
    main()
