#!/usr/bin/env python3
"""Checks that every class name a Markdown document mentions exists in the repository.

Takes CamelCase identifiers (two humps or more) that end a word or are followed by '.' or '#', and looks each up
among the tracked Java files' basenames and the types they declare (nested ones included), plus the JDK and peer
names listed below. Prints the unknown names and exits 1 when there are any.

Usage: scripts/check-doc-names.py docs/ARCHITECTURE.md [more.md ...]
"""
import re
import subprocess
import sys

# JDK, peer libraries, tools and words of the prose that look like class names.
ALLOWED = set("""
ReentrantLock ByteBuffer SocketChannel ServerSocketChannel FileChannel InputStream OutputStream LongAdder HashMap
TreeSet ArrayBlockingQueue AtomicReferenceArray CompletableFuture ProxySelector CookieHandler CookieManager Cleaner
IOException InterruptedIOException SocketTimeoutException ClosedChannelException AsynchronousCloseException
ClosedByInterruptException IllegalStateException IllegalBlockingModeException SSLException SSLHandshakeException
SSLSession SelectionKey DateTimeFormatter HotSpotDiagnosticMXBean AutoCloseable OkHttp HttpClient HdrHistogram
RealConnectionPool JUnit AssertJ LimitListener ReverseProxy GitHub MadeYouReset WriteBuffer TimeoutHandler ServeMux
StripPrefix LinuxBuild WindowController BufferingFlowControlStrategy HttpClientTransportOverHTTP SslHandler
SslContextBuilder SslConnectionFactory InputStreamResponseListener SerialGC VmRSS ProxyFromEnvironment
ServerSocket SocketAddress InetAddress Deflater ConnState KiB MiB GiB AssertionError BeforeEach AfterEach
ReadHeaderTimeout HostnameVerifier X509ExtendedTrustManager X509TrustManager Http2FrameCodec
""".split())

NAME = re.compile(r"(?<![\w/-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?=[.#]|\b)(?![-/])")
DECLARED = re.compile(r"\b(?:class|interface|record|enum)\s+([A-Z]\w*)")


def known_names():
    files = subprocess.run(["git", "ls-files", "*.java"], capture_output=True, text=True, check=True).stdout.split()
    names = set()
    for path in files:
        names.add(path.rsplit("/", 1)[-1][:-len(".java")])
        with open(path, encoding="utf-8", errors="replace") as source:
            names.update(DECLARED.findall(source.read()))
    return names


def main(paths):
    known = known_names() | ALLOWED
    unknown = {}
    for path in paths:
        with open(path, encoding="utf-8") as doc:
            for number, line in enumerate(doc, 1):
                for name in NAME.findall(line):
                    if name not in known:
                        unknown.setdefault(name, []).append(f"{path}:{number}")
    for name, places in sorted(unknown.items()):
        print(f"{name}: {', '.join(places[:5])}")
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
