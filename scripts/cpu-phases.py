#!/usr/bin/env python3
"""Sorts JFR CPU-time samples of a busy server into the phases of a request.

Usage: cpu-phases.py SAMPLES.txt [LAB.json]
SAMPLES.txt is `jfr print --events jdk.CPUTimeSample --stack-depth 64` output (scripts/profile-busy.sh writes it).
With the lab's JSON of the same run, each phase's share is also given in CPU microseconds per request.

A sample counts for its sampling period (each thread's CPU time between samples). It goes to the first phase that
claims it: a system call by the innermost frame, then the thread (the watcher), then the frames of the stack. The
rules name Shuttle's and Netty's classes; what neither claims is "other".
"""
import json
import re
import sys
from collections import Counter

SYSTEM_CALLS = [
    ('socket write', r'SocketDispatcher\.writev?0$'),
    ('socket read (read, FIONREAD)', r'SocketDispatcher\.readv?0$|Net\.available$|IOUtil\.drain'),
    ('epoll wait and ctl, selector wakeup', r'EPoll\.(wait|ctl)$|EventFD\.set0$'),
]


def any_frame(pattern):
    regex = re.compile(pattern)
    return lambda thread, frames: any(regex.search(frame) for frame in frames)


def leaf(pattern):
    regex = re.compile(pattern)
    return lambda thread, frames: bool(frames) and bool(regex.search(frames[0]))


PHASES = [
    ('watcher thread: registration, hand-back', lambda thread, frames: 'watcher' in thread),
    ('virtual-thread scheduling', lambda thread, frames: thread.startswith('ForkJoinPool')
        or leaf(r'VirtualThread\.|Continuation\.|LockSupport|ForkJoinPool')(thread, frames)),
    ('response head: fields, date, HPACK encode', any_frame(
        r'responseFields|HpackEncoder|FieldBlockEncoder|HttpDate|Http2Fields|Http2HeadersEncoder'
        r'|Http2ConnectionEncoder\.writeHeaders')),
    ('request head: HPACK decode, checks, admission', any_frame(
        r'HpackDecoder|Http2FieldCollector|StreamAdmission|HeaderBlockAssembler|DefaultHttp2Headers'
        r'|onHeadersRead')),
    ('streams and handler start', any_frame(
        r'Http2Streams|StreamTable|HandlerRun|HandlerSlots|DefaultHttp2Connection|Http2MultiplexHandler'
        r'|Http2FrameCodec')),
    ('locks', leaf(r'AbstractQueuedSynchronizer|ReentrantLock')),
    ('write path: buffers, flush', any_frame(
        r'Http2Writer|ParkGate|ChannelOutboundBuffer|flush0|AbstractChannelHandlerContext\.(write|flush)')),
    ('read path: buffers, frames, park', any_frame(
        r'ConnectionInput|ServerConnection|Http2Session|Http2FrameReader|FrameReceiver|NioEventLoop'
        r'|IoEventLoop|AbstractNioByteChannel|DefaultHttp2FrameReader')),
    ('handler', any_frame(r'dev\.shuttle\.lab\.servers')),
]


def samples(path):
    text = open(path, encoding='utf-8').read()
    for event in text.split('jdk.CPUTimeSample {')[1:]:
        period = re.search(r'samplingPeriod = ([\d.]+) ms', event)
        thread = re.search(r'eventThread = "([^"]*)"', event)
        frames = re.findall(r'^\s{4}(\S+?)\(', event, re.M)
        yield (float(period.group(1)) if period else 0.0), (thread.group(1) if thread else ''), frames


def phase_of(thread, frames):
    if frames:
        for name, pattern in SYSTEM_CALLS:
            if re.search(pattern, frames[0]):
                return name
    for name, claims in PHASES:
        if claims(thread, frames):
            return name
    return 'other'


def main():
    shares = Counter()
    total = 0.0
    for weight, thread, frames in samples(sys.argv[1]):
        shares[phase_of(thread, frames)] += weight
        total += weight
    if total == 0:
        sys.exit('no CPU-time samples in ' + sys.argv[1])
    per_request = None
    if len(sys.argv) > 2:
        cell = json.load(open(sys.argv[2], encoding='utf-8'))['cells'][0]
        per_request = cell['serverCpuMicrosPerRequest']
        print(f"{cell['server']}: {cell['requestsPerSecond']:.0f} requests/s, {per_request:.2f} CPU µs/request")
    for name, weight in shares.most_common():
        share = weight / total
        micros = f'  {share * per_request:5.2f} µs' if per_request is not None else ''
        print(f'{100 * share:5.1f} %{micros}  {name}')


if __name__ == '__main__':
    main()
