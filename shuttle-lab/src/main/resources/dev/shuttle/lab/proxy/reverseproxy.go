// The lab's Go reverse proxy: net/http/httputil.ReverseProxy in front of one upstream, as Go services deploy it.
// Run by `shuttle lab proxy` with `go run reverseproxy.go -upstream URL`; it listens on 127.0.0.1, prints
// "listening PORT go-VERSION" once ready, and serves until killed.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime"
)

func main() {
	upstream := flag.String("upstream", "", "upstream URL, e.g. http://127.0.0.1:8080")
	idlePerHost := flag.Int("max-idle-per-host", 100, "Transport.MaxIdleConnsPerHost (Go's default is 2)")
	flag.Parse()
	target, err := url.Parse(*upstream)
	if err != nil || target.Host == "" {
		log.Fatalf("bad -upstream %q: %v", *upstream, err)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	// Go keeps 2 idle connections per host by default, which churns under any concurrency (seed 003); the lab
	// compares what happens on a client abort, so the pool is sized like the other proxies'.
	transport.MaxIdleConnsPerHost = *idlePerHost
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = transport
	proxy.ErrorLog = log.New(os.Stderr, "", 0)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening %d %s\n", listener.Addr().(*net.TCPAddr).Port, runtime.Version())
	log.Fatal(http.Serve(listener, proxy))
}
